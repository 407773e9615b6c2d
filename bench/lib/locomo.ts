/**
 * The LoCoMo evidence-recall eval (issue 13) as a library: each conversation folder of
 * `../shared/eval/locomo-dev/` is a state dir (workspace/memory/*.md, agents/main/sessions/)
 * plus `map.json` and `queries.json` kept outside the workspace. Each question runs through
 * `searchIndex` — the engine's search service that `cairn search --json` calls — with
 * `maxResults 6` and otherwise the settings given (defaults unless an ablation changes them),
 * and is scored as the held-out check does (../shared/eval/README.md): turn recall, session
 * recall, lines per query, empties (fewer than 6 results), per category.
 *
 * Indexes live under the temp dir, in a folder of this checkout's own (`locomoCacheDir`; never
 * in the shared data folder: two checkouts' evals at once would rebuild each other's indexes
 * whenever their schema or settings differ), and are reused between runs: a sync only re-indexes what changed, and the embedding cache is keyed by
 * chunk hash, so a second run with a slow embedder costs only the queries.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig, type MemorySearchSettings } from '../../electron/engine/config/schema';
import type { Embedder } from '../../electron/engine/embed/types';
import { MemoryIndex } from '../../electron/engine/index/memory-index';
import { knnCopyLoaded, searchIndex } from '../../electron/engine/search/index-search';
import { quantile } from './stats';
import type { SearchResult } from '../../shared/types/search';

/** LoCoMo's categories as the converted data numbers them (adversarial 5 is left out). */
export const LOCOMO_CATEGORIES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

interface MapEntry {
  file: string;
  line: number;
  session: number;
  jsonl: string;
  jsonlLine: number;
}

interface LocomoQuery {
  qid: string;
  question: string;
  evidence: string[];
  category: number;
}

export interface LocomoConversation {
  id: string;
  dir: string;
  map: Record<string, MapEntry>;
  queries: LocomoQuery[];
}

export interface RecallScore {
  n: number;
  turn: number;
  session: number;
}

export interface LocomoMetrics extends RecallScore {
  linesPerQuery: number;
  /** Share of questions answered with fewer than k results. */
  empties: number;
  /** Wall time of one search (embedding the question included), p50 and p95, in ms. */
  searchMs: { p50: number; p95: number };
  byCategory: Record<string, RecallScore>;
  /** Response warnings seen (deduplicated, with counts) — e.g. a minScore cut's reason. */
  warnings: Map<string, number>;
}

/** Load every conversation folder under `root`; throws a clear "not found" when absent. */
export function loadLocomo(root: string): LocomoConversation[] {
  const abs = path.resolve(root);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new Error(`LoCoMo data not found: ${abs} is not a directory`);
  const out: LocomoConversation[] = [];
  for (const name of fs.readdirSync(abs).sort()) {
    const dir = path.join(abs, name);
    const q = path.join(dir, 'queries.json');
    const m = path.join(dir, 'map.json');
    if (!fs.existsSync(q) || !fs.existsSync(m)) continue;
    const parse = <T>(file: string): T => {
      try {
        return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
      } catch (err) {
        throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
      }
    };
    out.push({ id: name, dir, map: parse(m), queries: parse(q) });
  }
  if (out.length === 0) throw new Error(`LoCoMo data not found: no <conversation>/queries.json + map.json under ${abs}`);
  return out;
}

/** Settings for one run: the defaults, `sources` as given, then the caller's tweaks. */
export function locomoSettings(tweak?: (s: MemorySearchSettings) => void): MemorySearchSettings {
  const s = defaultConfig().memory.search;
  tweak?.(s);
  return s;
}

/** Where an evidence id lies, as result paths name it (memory file or session file). */
function hitOf(e: MapEntry, results: readonly SearchResult[]): { turn: boolean; session: boolean } {
  const sess = `sessions/${path.basename(e.jsonl)}`;
  let turn = false;
  let session = false;
  for (const r of results) {
    const line = r.path === e.file ? e.line : r.path === sess ? e.jsonlLine : null;
    if (line === null) continue;
    session = true;
    if (line >= r.startLine && line <= r.endLine) turn = true;
  }
  return { turn, session };
}

export interface LocomoRunOptions {
  /** Label naming the index file (one per embedder + indexing settings). */
  indexLabel: string;
  embedder: Embedder | null;
  settings: MemorySearchSettings;
  k?: number;
  /** Extra per-request fields (decay, mmr, …). */
  request?: { decay?: boolean; mmr?: boolean; minScore?: number };
  cacheDir?: string;
  /** Write every question's evidence and results here (JSON), for error analysis. */
  dumpFile?: string;
  /** Answer the vector side from the KNN worker's in-memory copy (search/knn-cache.ts), as a long-running engine does, instead of vec0 in-process. */
  knnCopy?: boolean;
}

/** Start the index's KNN worker (it starts on a second search) and wait for its in-memory copy. */
async function useKnnCopy(idx: MemoryIndex): Promise<void> {
  for (const query of ['warm-up', 'second warm-up']) await searchIndex(idx, { query });
  if (!(await knnCopyLoaded(idx))) throw new Error('--knn-copy: the KNN worker did not load its copy of the vectors');
}

/** Where this checkout's eval indexes are cached: one folder per checkout under the temp dir. */
export function locomoCacheDir(): string {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  return path.join(os.tmpdir(), `cairn-locomo-${createHash('sha256').update(root).digest('hex').slice(0, 12)}`);
}

/** Index (or reuse) and query every conversation; returns the metrics over all questions. */
export async function runLocomo(convs: readonly LocomoConversation[], o: LocomoRunOptions): Promise<LocomoMetrics> {
  const k = o.k ?? 6;
  const cache = o.cacheDir ?? locomoCacheDir();
  const per: { cat: string; turn: number; session: number; lines: number; empty: boolean }[] = [];
  const dump: unknown[] = [];
  const took: number[] = [];
  const warnings = new Map<string, number>();
  for (const c of convs) {
    const dir = path.join(cache, c.id);
    fs.mkdirSync(dir, { recursive: true });
    const idx = MemoryIndex.open({
      agentId: 'main',
      indexFile: path.join(dir, `${o.indexLabel}.sqlite`),
      roots: {
        workspace: path.join(c.dir, 'workspace'),
        sessionsDir: path.join(c.dir, 'agents', 'main', 'sessions'),
        extraPaths: o.settings.extraPaths,
        sources: o.settings.sources,
      },
      settings: o.settings,
      embedder: o.embedder,
      ...(o.knnCopy ? { knnWorkerMinChunks: 0 } : {}),
    });
    try {
      await idx.sync();
      if (o.knnCopy) await useKnnCopy(idx);
      for (const q of c.queries) {
        const t0 = performance.now();
        const res = await searchIndex(idx, { query: q.question, maxResults: k, ...o.request });
        took.push(performance.now() - t0);
        const top = res.results.slice(0, k);
        for (const w of res.warnings) warnings.set(w.replace(/\d+(\.\d+)?/g, 'N'), (warnings.get(w.replace(/\d+(\.\d+)?/g, 'N')) ?? 0) + 1);
        let turn = 0;
        let session = 0;
        for (const id of q.evidence) {
          const e = c.map[id];
          if (!e) continue; // an evidence id LoCoMo lists but the dialogue lacks
          const h = hitOf(e, top);
          turn += h.turn ? 1 : 0;
          session += h.session ? 1 : 0;
        }
        const n = q.evidence.filter((id) => c.map[id]).length || 1;
        const deep = o.dumpFile ? (await searchIndex(idx, { query: q.question, maxResults: 60, minScore: 0, ...o.request })).results : [];
        const rankOf = (e: MapEntry) => deep.findIndex((r) => r.path === e.file && e.line >= r.startLine && e.line <= r.endLine);
        if (o.dumpFile)
          dump.push({
            conv: c.id,
            qid: q.qid,
            cat: q.category,
            question: q.question,
            evidence: q.evidence.filter((id) => c.map[id]).map((id) => ({ id, file: c.map[id]!.file, line: c.map[id]!.line, hit: hitOf(c.map[id]!, top).turn, rank: rankOf(c.map[id]!) })),
            results: top.map((r) => ({ path: r.path, startLine: r.startLine, endLine: r.endLine, score: r.score })),
          });
        per.push({
          cat: LOCOMO_CATEGORIES[q.category] ?? String(q.category),
          turn: turn / n,
          session: session / n,
          lines: top.reduce((a, r) => a + r.endLine - r.startLine + 1, 0),
          empty: top.length < k,
        });
      }
    } finally {
      await idx.dispose();
    }
  }
  if (o.dumpFile) fs.writeFileSync(o.dumpFile, JSON.stringify(dump));
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const score = (xs: typeof per): RecallScore => ({ n: xs.length, turn: mean(xs.map((x) => x.turn)), session: mean(xs.map((x) => x.session)) });
  const byCategory: Record<string, RecallScore> = {};
  for (const cat of Object.values(LOCOMO_CATEGORIES)) byCategory[cat] = score(per.filter((x) => x.cat === cat));
  return {
    ...score(per),
    linesPerQuery: mean(per.map((x) => x.lines)),
    empties: mean(per.map((x) => (x.empty ? 1 : 0))),
    searchMs: { p50: quantile(took, 0.5), p95: quantile(took, 0.95) },
    byCategory,
    warnings,
  };
}

/** Markdown table header matching issue 13's table. */
export function locomoHeader(): string {
  const cats = Object.values(LOCOMO_CATEGORIES);
  return `| k = 6 | turn recall | session recall | ${cats.join(' | ')} | lines/query | < 6 results |\n|---|---|---|${cats.map(() => '---').join('|')}|---|---|`;
}

/** One row of that table. */
export function locomoRow(name: string, m: LocomoMetrics): string {
  const cats = Object.values(LOCOMO_CATEGORIES).map((c) => m.byCategory[c]!.turn.toFixed(3));
  return `| ${name} | ${m.turn.toFixed(3)} | ${m.session.toFixed(3)} | ${cats.join(' | ')} | ${m.linesPerQuery.toFixed(1)} | ${(100 * m.empties).toFixed(1)}% |`;
}
