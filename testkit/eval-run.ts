/**
 * The retrieval-quality eval (issue 3 item 8) as a library: load the known-answer queries of
 * bench/eval-data/, index the eval workspace with an embedder (or none), and score a search
 * configuration by hit@1, hit@6 and MRR@6 — overall and per query category. Used by
 * bench/eval.ts (the full report) and tests/unit/eval-quality.test.ts (the quality bar).
 *
 * Ranking quality is judged with `minScore 0` (every candidate may be shown) and the
 * default `maxResults 6`, so the numbers compare the orderings, not a score threshold.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig, type MemorySearchSettings } from '../electron/engine/config/schema';
import type { Embedder } from '../electron/engine/embed/types';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { searchIndex } from '../electron/engine/search/index-search';
import { STOP_WORDS } from '../shared/text/stop-words';
import { lowerWords } from '../shared/text/tokens';

const here = path.dirname(fileURLToPath(import.meta.url));
export const EVAL_DATA = path.resolve(here, '..', 'bench', 'eval-data');
export const EVAL_WORKSPACE = path.join(EVAL_DATA, 'workspace');

export type Category = 'paraphrase' | 'exact' | 'cjk' | 'temporal' | 'duplicates' | 'plain';
export const CATEGORIES: readonly Category[] = ['paraphrase', 'exact', 'cjk', 'temporal', 'duplicates', 'plain'];

export interface EvalQuery {
  id: string;
  category: Category;
  query: string;
  /** Workspace-relative paths; a result from any of them is a hit. */
  relevant: string[];
}

export interface EvalSet {
  now: Date;
  queries: EvalQuery[];
}

export function loadEvalSet(dir = EVAL_DATA): EvalSet {
  const raw = JSON.parse(fs.readFileSync(path.join(dir, 'queries.json'), 'utf8')) as { now: string; queries: EvalQuery[] };
  return { now: new Date(raw.now), queries: raw.queries };
}

/** Which half of the eval set a query is in: weights are chosen on `tune`, checked on `test`. */
export type EvalPart = 'tune' | 'test';

/**
 * The split, fixed by position (issue 13: the static weights had been tuned on the very
 * queries that checked them): within each category, the 1st, 3rd, 5th … query of
 * queries.json tunes and the 2nd, 4th … tests, so both halves hold every kind.
 */
export function splitEvalSet(set: EvalSet, part: EvalPart): EvalSet {
  const seen = new Map<Category, number>();
  const queries = set.queries.filter((q) => {
    const i = seen.get(q.category) ?? 0;
    seen.set(q.category, i + 1);
    return (i % 2 === 0) === (part === 'tune');
  });
  return { now: set.now, queries };
}

const words = (s: string) => new Set(lowerWords(s));

/**
 * Paraphrase queries must share no content word with their answer file (stop words aside):
 * returns the violations, e.g. `p-rest: "night"`.
 */
export function paraphraseViolations(set: EvalSet, workspace = EVAL_WORKSPACE): string[] {
  const out: string[] = [];
  for (const q of set.queries.filter((x) => x.category === 'paraphrase')) {
    for (const rel of q.relevant) {
      const text = words(fs.readFileSync(path.join(workspace, rel), 'utf8'));
      for (const w of words(q.query)) if (!STOP_WORDS.has(w) && text.has(w)) out.push(`${q.id}: "${w}" is in ${rel}`);
    }
  }
  return out;
}

export interface Score {
  hit1: number;
  hit6: number;
  mrr: number;
  n: number;
}

export interface Metrics extends Score {
  byCategory: Record<Category, Score>;
  /** Query ids missed at 6 (for reading the failures). */
  missed: string[];
}

export interface EvalConfig {
  /** Search the vector side too (false = keyword side only, i.e. FTS-only mode). */
  vectors: boolean;
  /** Both sides merged (false with vectors = vector-only). */
  hybrid: boolean;
  /** Explicit merge weights; absent = the per-embedder default (score.ts). */
  vectorWeight?: number;
  decay?: boolean;
  mmr?: boolean;
}

function settingsFor(c: EvalConfig): MemorySearchSettings {
  const s = defaultConfig().memory.search;
  s.sources = ['memory'];
  s.query.minScore = 0;
  s.query.hybrid.enabled = c.hybrid;
  if (c.vectorWeight !== undefined) {
    s.query.hybrid.vectorWeight = c.vectorWeight;
    s.query.hybrid.textWeight = 1 - c.vectorWeight;
  }
  return s;
}

function aggregate(ranks: { q: EvalQuery; rank: number | null }[]): Metrics {
  const score = (xs: typeof ranks): Score => ({
    n: xs.length,
    hit1: xs.length ? xs.filter((x) => x.rank === 1).length / xs.length : 0,
    hit6: xs.length ? xs.filter((x) => x.rank !== null && x.rank <= 6).length / xs.length : 0,
    mrr: xs.length ? xs.reduce((a, x) => a + (x.rank ? 1 / x.rank : 0), 0) / xs.length : 0,
  });
  const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, score(ranks.filter((x) => x.q.category === c))])) as Record<Category, Score>;
  return { ...score(ranks), byCategory, missed: ranks.filter((x) => x.rank === null).map((x) => x.q.id) };
}

/**
 * The eval workspace indexed once for one embedder (null = keyword index only), in a temp
 * dir; `score(config)` runs every query through a MemoryIndex opened with that config.
 */
export class EvalIndex {
  private constructor(
    readonly embedder: Embedder | null,
    private readonly dir: string,
    private readonly set: EvalSet,
    private readonly workspace: string,
  ) {}

  static async build(embedder: Embedder | null, set = loadEvalSet(), workspace = EVAL_WORKSPACE): Promise<EvalIndex> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-eval-'));
    const e = new EvalIndex(embedder, dir, set, workspace);
    const idx = e.open({ vectors: true, hybrid: true });
    await idx.sync();
    await idx.dispose();
    return e;
  }

  private open(c: EvalConfig): MemoryIndex {
    const settings = settingsFor(c);
    return MemoryIndex.open({
      agentId: 'eval',
      indexFile: path.join(this.dir, 'eval.sqlite'),
      roots: { workspace: this.workspace, sessionsDir: path.join(this.dir, 'no-sessions'), extraPaths: [], sources: settings.sources },
      settings,
      // An index opened without its embedder answers from the keyword side only (FTS-only).
      embedder: c.vectors ? this.embedder : null,
      now: () => this.set.now,
    });
  }

  /** Score a configuration on the whole set, or on one part of it (splitEvalSet). */
  async score(c: EvalConfig, part?: EvalPart): Promise<Metrics> {
    const idx = this.open(c);
    const ranks: { q: EvalQuery; rank: number | null }[] = [];
    try {
      for (const q of part ? splitEvalSet(this.set, part).queries : this.set.queries) {
        const res = await searchIndex(idx, { query: q.query, maxResults: 6, minScore: 0, decay: c.decay ?? false, mmr: c.mmr ?? false });
        const at = res.results.findIndex((r) => q.relevant.includes(r.path));
        ranks.push({ q, rank: at < 0 ? null : at + 1 });
      }
    } finally {
      await idx.dispose();
    }
    return aggregate(ranks);
  }

  async dispose(): Promise<void> {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
