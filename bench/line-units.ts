/**
 * Which line units (index/line-vectors.ts) pay for their tokens: for each rule set, the
 * unique texts a 10k-corpus index with line vectors embeds and their tokens as the real
 * embedder (all-MiniLM-L6-v2 GGUF) counts them, against today's units. Reads the dump of
 * `bench/embed-throughput.ts dump 10k <file>` (chunk texts included); counts offline, no
 * embedding. Prints Markdown (docs/benchmarks.md § Fewer tokens for the real embedder).
 *
 *   node --import tsx bench/line-units.ts [dump.json]          texts and tokens by rule set
 *   node --import tsx bench/line-units.ts cpu [dump.json] [n=480]   embedding CPU, before vs now (paired samples)
 *
 * The LoCoMo recall of each rule set is measured separately (`npm run eval -- --locomo …`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGgufEmbedder } from '../electron/engine/embed/gguf';
import { benchModelPath } from './lib/bench-model';
import { LINE_UNIT_RULES, MIN_LINE_CHARS, lineUnits, type LineUnitRules } from '../electron/engine/index/line-vectors';

const DEFAULT_FILE = path.join(os.tmpdir(), 'cairn-embed-texts-10k.json');

/** Today's rules before this change, and the candidates measured. */
/** Before `lineUnits` version 2, a unit shorter than this (chars) was merged with the next line. */
const OLD_MERGE_CHARS = 48;
const OLD: LineUnitRules = { mergeBelow: OLD_MERGE_CHARS, dropBelow: 0, maxChars: 0, maxShare: 1 };
const RULE_SETS: [string, Partial<LineUnitRules>][] = [
  ['before (every unit, short lines merged to 48 chars)', {}],
  ['short lines merged to 96 chars', { mergeBelow: 96 }],
  ['every line alone (no merging)', { mergeBelow: 0 }],
  ['lines < 48 chars left out, not merged', { mergeBelow: 0, dropBelow: 48 }],
  [`every line alone, lines < ${MIN_LINE_CHARS} chars of words left out`, { mergeBelow: 0, dropBelow: MIN_LINE_CHARS }],
  ['no unit ≥ 50 % of its chunk', { maxShare: 0.5 }],
  ['no unit ≥ 30 % of its chunk', { maxShare: 0.3 }],
  ['units cut to 300 chars', { maxChars: 300 }],
  ['units cut to 200 chars', { maxChars: 200 }],
  ['lines < 48 left out, cut to 200, none ≥ 30 %', { mergeBelow: 0, dropBelow: 48, maxChars: 200, maxShare: 0.3 }],
];
/** The same, with each chunk's vector the mean of its units' (no body embedded). */
const RULE_SETS_MEAN: [string, Partial<LineUnitRules>][] = [
  ['units as before', {}],
  ['lines < 48 chars left out', { mergeBelow: 0, dropBelow: 48 }],
  ['lines < 48 left out, cut to 300', { mergeBelow: 0, dropBelow: 48, maxChars: 300 }],
  ['lines < 48 left out, cut to 200', { mergeBelow: 0, dropBelow: 48, maxChars: 200 }],
];


interface DumpChunk {
  body: string;
  text?: string;
}

/** The unique texts an index embeds under `rules`: with `mean`, a chunk with line units embeds no body. */
function textsOf(chunks: readonly DumpChunk[], rules: LineUnitRules, mean: boolean): { bodies: string[]; units: string[] } {
  const bodies = new Set<string>();
  const units = new Set<string>();
  for (const c of chunks) {
    const us = lineUnits(c.text!, rules);
    if (!mean || us.length === 0) bodies.add(c.body);
    for (const u of us) units.add(u); // one cache entry per text
  }
  for (const b of bodies) units.delete(b);
  return { bodies: [...bodies], units: [...units] };
}

/** Every k-th element of `xs`, n of them. */
function sample<T>(xs: readonly T[], n: number): T[] {
  const step = xs.length / n;
  return Array.from({ length: Math.min(n, xs.length) }, (_, i) => xs[Math.floor(i * step)]!);
}

async function main(): Promise<void> {
  const [mode, arg1, arg2] = process.argv.slice(2);
  const file = (mode === 'cpu' ? arg1 : mode) || DEFAULT_FILE;
  const d = JSON.parse(fs.readFileSync(file, 'utf8')) as { chunks: DumpChunk[] };
  if (d.chunks.some((c) => c.text === undefined)) throw new Error(`${file}: no chunk texts (re-run bench/embed-throughput.ts dump)`);
  const e = await createGgufEmbedder({ modelPath: benchModelPath(), contexts: mode === 'cpu' ? 2 : 1 });
  const memo = new Map<string, number>();
  // [CLS] and [SEP] included, cut at 256 as the embedder cuts.
  const tokens = (t: string): number => {
    let n = memo.get(t);
    if (n === undefined) memo.set(t, (n = Math.min(e.countTokens(t), 254) + 2));
    return n;
  };
  const sum = (xs: readonly string[]): number => xs.reduce((n, t) => n + tokens(t), 0);
  if (mode === 'cpu') {
    await cpu(e, d.chunks, Number(arg2 ?? 480), tokens);
    await e.dispose();
    return;
  }
  const sets: [string, LineUnitRules, boolean][] = [
    ...RULE_SETS.map(([n, r]): [string, LineUnitRules, boolean] => [n, { ...OLD, ...r }, false]),
    ...RULE_SETS_MEAN.map(([n, r]): [string, LineUnitRules, boolean] => [`chunk vector = mean of its units; ${n}`, { ...OLD, ...r }, true]),
    ['**the index now** (`LINE_UNIT_RULES`, chunk vector = mean of its units)', LINE_UNIT_RULES, true],
  ];
  console.log(`### Texts the 10k index embeds by rule (${d.chunks.length.toLocaleString('en')} chunks; tokens as all-MiniLM-L6-v2 counts them, [CLS]/[SEP] included, cut at 256)\n`);
  console.log('| rules | bodies embedded | unique units | body tokens | line tokens | all tokens | saved |\n|---|---|---|---|---|---|---|');
  let before = 0;
  for (const [name, rules, mean] of sets) {
    const t = textsOf(d.chunks, rules, mean);
    const [b, l] = [sum(t.bodies), sum(t.units)];
    if (!before) before = b + l;
    console.log(`| ${name} | ${t.bodies.length.toLocaleString('en')} | ${t.units.length.toLocaleString('en')} | ${b.toLocaleString('en')} | ${l.toLocaleString('en')} | ${(b + l).toLocaleString('en')} | ${((100 * (before - b - l)) / before).toFixed(0)} % |`);
  }
  await e.dispose();
}

/**
 * Process CPU of the real embedder (two single-threaded contexts, batches of 96) on an
 * n-text sample of the old and of the new text set, interleaved batch by batch so both see
 * the same load; each sample's CPU per text × its set's size estimates the whole index's
 * embedding CPU.
 */
async function cpu(e: Awaited<ReturnType<typeof createGgufEmbedder>>, chunks: readonly DumpChunk[], n: number, tokens: (t: string) => number): Promise<void> {
  const sets = [
    { name: 'before', t: textsOf(chunks, OLD, false) },
    { name: 'now', t: textsOf(chunks, LINE_UNIT_RULES, true) },
  ].map((s) => {
    const all = [...s.t.bodies, ...s.t.units];
    return { name: s.name, size: all.length, tokens: all.reduce((k, x) => k + tokens(x), 0), sample: sample(all, n), cpu: 0 };
  });
  await e.embed(sets[0]!.sample.slice(0, 4));
  const load0 = os.loadavg()[0]!;
  for (let i = 0; i < n; i += 96) {
    for (const s of sets) {
      const c0 = process.cpuUsage();
      await e.embed(s.sample.slice(i, i + 96));
      const c = process.cpuUsage(c0);
      s.cpu += (c.user + c.system) / 1e6;
    }
  }
  console.log(`### Embedding CPU of the 10k index, estimated from ${n}-text samples (load ${load0.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)})\n`);
  console.log('| text set | texts | tokens | sample CPU | CPU per text | whole index (estimate) | on 2 idle cores |\n|---|---|---|---|---|---|---|');
  for (const s of sets) {
    const per = s.cpu / s.sample.length;
    console.log(`| ${s.name} | ${s.size.toLocaleString('en')} | ${s.tokens.toLocaleString('en')} | ${s.cpu.toFixed(1)} s | ${(per * 1000).toFixed(1)} ms | ${(per * s.size).toFixed(0)} s | ${((per * s.size) / 120).toFixed(1)} min |`);
  }
}

await main();
