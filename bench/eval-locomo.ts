/**
 * `npm run eval -- --locomo <dir>`: LoCoMo evidence-turn recall@6 (issue 13) on a folder of
 * converted conversations (../shared/eval/locomo-dev: development half only), through the
 * engine's search service with default settings, printing issue 13's table. Flags change one
 * thing at a time (ablations):
 *
 *   --embedder static|none|<path.gguf>  (default static: what `cairn search` picks offline,
 *                                  potion-base-8M)
 *   --vector-weight W                    merge weight of the vector side (text = 1 − W)
 *   --min-score S                        override query.minScore
 *   --sources memory|sessions|all        what is indexed and searched (default: memory)
 *   --tokens N --overlap N               chunking
 *   --calibration relative|absolute      rank → score calibration of both sides
 *   --stem-weight W                      weight of the stemmed keyword table (0 = exact only)
 *   --spread R                           prefer a new file when its score ≥ R × (1 = off)
 *   --ranges folded|trimmed|chunks       the lines results cite (default folded)
 *   --candidates N                       candidateMultiplier (candidates per side = 6 × N)
 *   --no-relative-dates                  "last week" etc. not resolved to note days
 *   --decay --mmr                        the optional re-rankers
 *   --line-vectors auto|on|off           line vectors with max-sim per chunk (issue 13)
 *   --threads N                          llama.cpp threads of a GGUF embedder (default 1:
 *                                        on a loaded machine a second thread costs ~6× CPU)
 *   --sweep                              also sweep the merge weight 0..1
 *   --dump FILE                          write each question's evidence and results (JSON)
 *   --early-stop P,T                     the keyword side stops early above P postings and
 *                                        ranks the newest T matches (search/lexical.ts
 *                                        EARLY_STOP; ~20k,2k by default, which a LoCoMo
 *                                        conversation never reaches: this simulates a big memory)
 *   --knn-copy                           the vector side from the KNN worker's in-memory copy
 *                                        (what the app and `cairn serve` answer from) instead
 *                                        of vec0 in-process
 *   --recall-section [--tokens N]        what the model reads (issue 37): each question through
 *                                        the OpenClaw plugin's recall (recallForPrompt, its
 *                                        defaults), evidence whose words stand in the section,
 *                                        at 300, 600 and 1,200 tokens (or N: here --tokens is
 *                                        the section budget, not the chunk size); with --dump
 *                                        FILE, each question's evidence and where it was lost
 *                                        (not in the 12 hits, not picked, not packed) at the
 *                                        middle budget, and its section (JSON)
 */
import os from 'node:os';
import path from 'node:path';
import { createGgufEmbedder } from '../electron/engine/embed/gguf';
import { createPotionEmbedder } from '../electron/engine/embed/potion';
import type { Embedder } from '../electron/engine/embed/types';
import type { MemorySearchSettings } from '../electron/engine/config/schema';
import { EARLY_STOP } from '../electron/engine/search/lexical';
import { loadLocomo, locomoHeader, locomoRow, locomoSettings, runLocomo } from './lib/locomo';
import { PLUGIN_DEFAULTS, runRecallSection, sectionTable } from './lib/locomo-section';

function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
  return v;
}

function num(argv: readonly string[], name: string): number | undefined {
  const v = flag(argv, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`${name}: not a number: ${v}`);
  return n;
}

/**
 * The same embedder with its query vectors remembered: a sweep asks each question once per
 * configuration, and a real model on two shared cores takes ~50 ms a query. Same vectors,
 * same results; chunk vectors are cached by the index itself (by chunk hash).
 */
function memoQueries(e: Embedder): Embedder {
  const memo = new Map<string, Float32Array>();
  return {
    provider: e.provider,
    model: e.model,
    id: e.id,
    get dims() {
      return e.dims;
    },
    async embed(texts, opts) {
      if (opts?.kind !== 'query' || texts.length !== 1) return e.embed(texts, opts);
      const hit = memo.get(texts[0]!);
      if (hit) return [hit];
      const [v] = await e.embed(texts, opts);
      if (v) memo.set(texts[0]!, v);
      return v ? [v] : [];
    },
    dispose: () => e.dispose(),
  };
}

async function makeEmbedder(spec: string, threads: number): Promise<Embedder | null> {
  if (spec === 'none') return null;
  if (spec === 'static' || spec === 'potion') return createPotionEmbedder();
  if (spec.endsWith('.gguf')) return createGgufEmbedder({ modelPath: path.resolve(spec), threads });
  throw new Error(`--embedder: expected static, none or a .gguf path, got ${spec}`);
}

/** Run the LoCoMo report; returns the process exit code (2 = data not found). */
export async function locomoMain(argv: readonly string[]): Promise<number> {
  const dir = flag(argv, '--locomo')!;
  let convs;
  try {
    convs = loadLocomo(dir);
  } catch (err) {
    console.error((err as Error).message);
    return 2;
  }
  const spec = flag(argv, '--embedder') ?? 'static';
  const made = await makeEmbedder(spec, num(argv, '--threads') ?? 1);
  const embedder = made && memoQueries(made);
  const section = argv.includes('--recall-section');
  const tokens = section ? undefined : num(argv, '--tokens');
  const overlap = num(argv, '--overlap');
  const sources = flag(argv, '--sources');
  const minScore = num(argv, '--min-score');
  const vw = num(argv, '--vector-weight');
  const spread = num(argv, '--spread');
  const ranges = flag(argv, '--ranges') as 'folded' | 'trimmed' | 'chunks' | undefined;
  if (ranges && !['folded', 'trimmed', 'chunks'].includes(ranges)) throw new Error(`--ranges: expected folded, trimmed or chunks, got ${ranges}`);
  const candidates = num(argv, '--candidates');
  const stemWeight = num(argv, '--stem-weight');
  const calibration = flag(argv, '--calibration') as 'relative' | 'absolute' | undefined;
  const lineVectors = flag(argv, '--line-vectors') as 'auto' | 'on' | 'off' | undefined;
  if (lineVectors && !['auto', 'on', 'off'].includes(lineVectors)) throw new Error(`--line-vectors: expected auto, on or off, got ${lineVectors}`);
  const stop = flag(argv, '--early-stop');
  if (stop) {
    const [postings, tier] = stop.split(',').map(Number);
    if (!(postings! >= 0 && tier! >= 1)) throw new Error(`--early-stop: expected P,T (postings, tier), got ${stop}`);
    EARLY_STOP.postings = postings!;
    EARLY_STOP.tier = tier!;
  }
  const base = (s: MemorySearchSettings) => {
    if (tokens !== undefined) s.chunking.tokens = tokens;
    if (overlap !== undefined) s.chunking.overlap = overlap;
    if (sources) s.sources = sources === 'all' ? ['memory', 'sessions'] : [sources as 'memory' | 'sessions'];
    if (minScore !== undefined) s.query.minScore = minScore;
    if (calibration) s.query.hybrid.calibration = calibration;
    if (spread !== undefined) s.query.hybrid.spread = spread;
    if (ranges) s.query.hybrid.ranges = ranges;
    if (candidates !== undefined) s.query.hybrid.candidateMultiplier = candidates;
    if (stemWeight !== undefined) s.query.hybrid.stemWeight = stemWeight;
    if (argv.includes('--no-relative-dates')) s.query.hybrid.relativeDates = false;
    if (lineVectors) s.query.hybrid.lineVectors = lineVectors;
  };
  const indexLabel = [spec === 'static' ? 'potion' : ['none', 'potion'].includes(spec) ? spec : path.basename(spec, '.gguf'), tokens ?? 'd', overlap ?? 'd', sources ?? 'mem', ...(lineVectors ? [`lines-${lineVectors}`] : [])].join('-');
  const request = { decay: argv.includes('--decay') || undefined, mmr: argv.includes('--mmr') || undefined };
  const qn = convs.reduce((a, c) => a + c.queries.length, 0);
  console.log(`LoCoMo: ${convs.length} conversations, ${qn} questions (${path.resolve(dir)}); embedder ${embedder ? `${embedder.provider}/${embedder.model}` : 'none'}; k = 6.\n`);
  if (section) {
    try {
      const budget = num(argv, '--tokens');
      const rows = await runRecallSection(convs, { indexLabel, embedder, settings: locomoSettings(base), budgets: budget !== undefined ? [budget] : [300, 600, 1200], dumpFile: flag(argv, '--dump') });
      console.log(`What the model reads: the OpenClaw plugin's recall section (score floor ${PLUGIN_DEFAULTS.minScore}, ${PLUGIN_DEFAULTS.maxHits} hits); load average ${os.loadavg()[0]!.toFixed(1)}.\n`);
      console.log(sectionTable(rows));
    } finally {
      await embedder?.dispose();
    }
    return 0;
  }
  console.log(locomoHeader());
  try {
    const weights: (number | undefined)[] = [vw];
    if (argv.includes('--sweep')) weights.push(0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1);
    let lastWarnings = new Map<string, number>();
    const searchTimes: string[] = [];
    for (const w of weights) {
      const settings = locomoSettings((s) => {
        base(s);
        if (w !== undefined) {
          s.query.hybrid.vectorWeight = w;
          s.query.hybrid.textWeight = 1 - w;
        }
      });
      const m = await runLocomo(convs, { indexLabel, embedder, settings, request, dumpFile: w === vw ? flag(argv, '--dump') : undefined, knnCopy: argv.includes('--knn-copy') });
      console.log(locomoRow(w === undefined ? 'defaults' : `vectorWeight ${w.toFixed(1)}`, m));
      searchTimes.push(`${w === undefined ? 'defaults' : `vectorWeight ${w.toFixed(1)}`}: p50 ${m.searchMs.p50.toFixed(1)} ms, p95 ${m.searchMs.p95.toFixed(1)} ms`);
      if (w === vw) lastWarnings = m.warnings;
    }
    console.log(`\nSearch wall time per question (embedding it included; load average ${os.loadavg()[0]!.toFixed(1)}): ${searchTimes.join('; ')}`);
    if (lastWarnings.size) {
      console.log('\nWarnings returned (defaults row):');
      for (const [w, n] of lastWarnings) console.log(`- ${n}× ${w}`);
    }
  } finally {
    await embedder?.dispose();
  }
  return 0;
}
