/**
 * The keyword side of the hybrid search over two FTS5 tables: exact tokens
 * (`chunks_fts`) and the same text stemmed (`chunks_fts_stem`, Porter). Stemming finds
 * "camping" for "camped" — the largest single gain measured on LoCoMo — but alone it let
 * stem-only hits ("plans" for "planned") outrank the vector side's paraphrase answers. So the
 * stemmed table is weighted below the exact one: a chunk's keyword score is
 * `(exact + stemWeight × stem) / (1 + stemWeight)`, each side calibrated on its own (relative
 * to its best hit, or BM25's absolute map). A chunk that matches exactly also matches
 * stemmed and scores up to 1; a stem-only match scores at most `stemWeight / (1 + stemWeight)`.
 */
import type { Db } from '../index/db';
import { hasTable } from '../index/schema';
import { ftsCandidates, keywordMatch, type Candidate, type CandidateFilter } from './candidates';
import { POSTINGS_BUDGET } from './fts-query';
import { bm25RankToScore, relativeBm25 } from './score';

/** Postings the stemmed query reads at most, counted on the exact table (fts-query.ts pruneTerms). */
export const STEM_POSTINGS_BUDGET = POSTINGS_BUDGET / 4;

export interface LexicalOptions {
  /** How BM25 ranks become 0..1 (score.ts); the same for both tables. */
  calibration: 'relative' | 'absolute';
  /** Weight of the stemmed table beside the exact one (0 = exact tokens only). */
  stemWeight: number;
}

/** A keyword candidate; `stemOnly` when only the stemmed table matched it. */
export interface KeywordCandidate extends Candidate {
  stemOnly?: boolean;
}

function calibrate(cands: readonly Candidate[], calibration: LexicalOptions['calibration']): Candidate[] {
  return calibration === 'relative' ? relativeBm25(cands) : cands.map((c) => ({ ...c, score: bm25RankToScore(c.raw) }));
}

/**
 * Keyword candidates of both tables, merged by chunk and sorted best first (at most `limit`
 * from each table). An index without the stemmed table (built before schema 6 and not yet
 * rebuilt) is searched by exact tokens only. `raw` is the exact table's rank when the chunk
 * matched there, else the stemmed table's.
 */
export function lexicalCandidates(db: Db, query: string, limit: number, filter: CandidateFilter, o: LexicalOptions): KeywordCandidate[] {
  const match = keywordMatch(db, query);
  if (!match) return [];
  const exact = calibrate(ftsCandidates(db, 'chunks_fts', match, limit, filter), o.calibration);
  if (!(o.stemWeight > 0) || !hasTable(db, 'chunks_fts_stem')) return exact;
  // FTS5 stems the MATCH terms itself, so the same expression serves both tables.
  // A stem has more postings than its word ("plan" vs "plans") and the terms are pruned by
  // the exact table's counts: a quarter of the exact side's postings budget keeps the stem
  // query's cost near the exact one's at 100k chunks (docs/benchmarks.md).
  const stemMatch = keywordMatch(db, query, STEM_POSTINGS_BUDGET);
  const stem = stemMatch ? calibrate(ftsCandidates(db, 'chunks_fts_stem', stemMatch, limit, filter), o.calibration) : [];
  const byId = new Map<number, { exact: Candidate | null; stem: number }>();
  for (const c of exact) byId.set(c.id, { exact: c, stem: 0 });
  for (const c of stem) {
    const e = byId.get(c.id);
    if (e) e.stem = c.score;
    else byId.set(c.id, { exact: null, stem: c.score });
  }
  const rawOf = new Map(stem.map((c) => [c.id, c.raw]));
  const out: KeywordCandidate[] = [];
  for (const [id, e] of byId) {
    const score = ((e.exact?.score ?? 0) + o.stemWeight * e.stem) / (1 + o.stemWeight);
    out.push(e.exact ? { id, score, raw: e.exact.raw } : { id, score, raw: rawOf.get(id) ?? 0, stemOnly: true });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}
