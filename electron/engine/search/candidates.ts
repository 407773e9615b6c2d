/**
 * The two candidate sides of the hybrid search: BM25 over `chunks_fts`, and KNN over
 * `chunks_vec` (sqlite-vec `vec0`; or an in-process cosine scan of the fallback table when
 * sqlite-vec could not load — same scores, same order), whose int8 candidates are re-scored
 * from the float copies (exact-vectors.ts). Both honour the source and date
 * filters and return at most `limit` `{id, score}` pairs, best first.
 */
import type { Db } from '../index/db';
import { hasTable } from '../index/schema';
import { int8Blob, int8Vec, unitVec } from '../index/store';
import { oversampled, rescoreExact } from './exact-vectors';
import { int8BlockCandidates } from './int8-scan';
import type { MemorySource } from '../../../shared/types/search';
import { buildFtsQuery, pruneTerms } from './fts-query';
import { bm25RankToScore } from './score';

export interface CandidateFilter {
  /** Sources to search; no filter is applied when the index holds no other source. */
  sources: readonly MemorySource[];
  /** Sources the index holds (its identity); unknown = filter whenever one source is asked. */
  indexed?: readonly MemorySource[] | undefined;
  /** Inclusive YYYY-MM-DD. */
  since?: string | undefined;
  /** Exclusive YYYY-MM-DD. */
  before?: string | undefined;
}

export interface Candidate {
  id: number;
  score: number;
  /** Raw FTS5 rank or cosine distance, for explain/debugging. */
  raw: number;
}

/** What a filter asks of a chunk: its source (null = any), and its day's range. */
export function filterSpec(f: CandidateFilter): { source: string | null; since: string | null; before: string | null } {
  const narrower = f.indexed ? f.indexed.some((s) => !f.sources.includes(s)) : f.sources.length === 1;
  return {
    source: narrower && f.sources.length === 1 ? f.sources[0]! : null,
    since: f.since || null,
    before: f.before || null,
  };
}

function filterSql(f: CandidateFilter, alias: string): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  const spec = filterSpec(f);
  if (spec.source !== null) {
    parts.push(`${alias}.source = ?`);
    params.push(spec.source);
  }
  if (spec.since !== null) {
    parts.push(`${alias}.day >= ?`);
    params.push(spec.since);
  }
  if (spec.before !== null) {
    parts.push(`${alias}.day < ?`);
    params.push(spec.before);
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** Terms whose document counts are remembered per connection (then the cache starts over). */
const DOC_COUNT_CACHE = 4096;
const docCountCache = new WeakMap<Db, { stamp: string; counts: Map<string, number> }>();

/**
 * Document count of a term, remembered until the index changes: fts5vocab counts them by
 * walking the term's whole doclist (≈ 0.5 ms for a common term at 100k chunks, several
 * terms per query). The stamp changes with any write — this connection's
 * (`total_changes()`) or another's (`data_version`).
 */
export function docCounts(db: Db): (term: string) => number {
  const stamp = `${String(db.pragma('data_version', { simple: true }))}:${String(db.prepare('SELECT total_changes()').pluck().get())}`;
  let entry = docCountCache.get(db);
  if (!entry || entry.stamp !== stamp || entry.counts.size > DOC_COUNT_CACHE) {
    entry = { stamp, counts: new Map() };
    docCountCache.set(db, entry);
  }
  const { counts } = entry;
  const doc = db.prepare('SELECT doc FROM chunks_fts_vocab WHERE term = ?').pluck();
  return (term) => {
    let n = counts.get(term);
    if (n === undefined) {
      n = (doc.get(term) as number | undefined) ?? 0;
      counts.set(term, n);
    }
    return n;
  };
}

/** A keyword MATCH expression and the postings its kept terms hold (their document counts summed). */
export interface KeywordPlan {
  match: string;
  postings: number;
  /** Whether a kept term is a phrase of several words (FTS5 then checks positions). */
  phrase: boolean;
  /** The index's chunk count as the last sync stored it (undefined: not stored). */
  chunks: number | undefined;
}

/**
 * The keyword side's MATCH expression for `query` (common terms pruned, see pruneTerms) and
 * its kept terms' postings, or null when the query has no searchable term. The postings are
 * an upper bound of the chunks the expression matches (a phrase counts as its rarest word);
 * 0 when the index has no vocabulary view.
 */
export function keywordPlan(db: Db, query: string, budget?: number): KeywordPlan | null {
  let docs: ((term: string) => number) | null = null;
  try {
    docs = docCounts(db);
  } catch {
    docs = null; // an index without the vocab view: search every term
  }
  // A phrase matches at most as many chunks as its rarest word.
  const df = (t: string[]) => (docs ? Math.min(...t.map(docs)) : 0);
  let kept: string[][] = [];
  // The chunk count is kept in meta by each sync (COUNT(*) would scan 100k rows per query).
  let stored: number | undefined;
  try {
    const v = db.prepare("SELECT value FROM meta WHERE key = 'chunkCount'").pluck().get() as string | undefined;
    stored = v !== undefined ? Number(v) : undefined;
  } catch {
    stored = undefined;
  }
  const match = buildFtsQuery(query, (terms) => {
    kept = terms;
    if (terms.length <= 1 || !docs) return terms;
    try {
      const total = stored ?? (db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number);
      kept = pruneTerms(terms, df, total, budget);
    } catch {
      docs = null; // counts unreadable: search every term
    }
    return kept;
  });
  if (match === null) return null;
  return { match, postings: kept.reduce((sum, t) => sum + df(t), 0), phrase: kept.some((t) => t.length > 1), chunks: stored };
}

/** BM25 candidates of one FTS5 table (`chunks_fts`, or `chunks_fts_stem`) for a MATCH expression. */
export function ftsCandidates(db: Db, table: FtsTable, match: string, limit: number, filter: CandidateFilter): Candidate[] {
  const f = filterSql(filter, 'c');
  // Without a filter the FTS table alone answers. With one, every match is joined to its
  // source and day through the covering index chunks_filter(id, source, day): SQLite would
  // otherwise look up the wide chunk rows (≈ 1.6 KB of text each) — at 100k chunks a
  // common term matches ~20k rows, ~13 vs ~5 ms.
  const joined = (hint: string) =>
    `SELECT c.id AS id, bm25(${table}) AS rank FROM ${table} JOIN chunks c${hint} ON c.id = ${table}.rowid
     WHERE ${table} MATCH ?${f.sql} ORDER BY rank LIMIT ?`;
  let stmt;
  if (!f.sql) stmt = db.prepare(`SELECT rowid AS id, bm25(${table}) AS rank FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ?`);
  else if (hasTable(db, 'chunks_filter')) stmt = db.prepare(joined(' INDEXED BY chunks_filter'));
  else stmt = db.prepare(joined('')); // an index built before chunks_filter existed
  const rows = stmt.all(match, ...f.params, limit) as { id: number; rank: number }[];
  return rows.map((r) => ({ id: r.id, score: bm25RankToScore(r.rank), raw: r.rank }));
}

/** The two FTS5 tables of the keyword side. */
export type FtsTable = 'chunks_fts' | 'chunks_fts_stem';

/**
 * BM25 of the newest `tier` chunks (highest ids) a MATCH expression finds, in id order
 * (newest first), not ranked. FTS5 walks a doclist in rowid order and stops at the LIMIT, so
 * this costs `tier` postings whatever the term's document count — `ORDER BY rank` would score
 * every posting first (≈ 175k for a common word at 1M chunks).
 */
export function ftsNewest(db: Db, table: FtsTable, match: string, tier: number, filter: CandidateFilter): Candidate[] {
  const f = filterSql(filter, 'c');
  const sql = f.sql
    ? `SELECT c.id AS id, bm25(${table}) AS rank FROM ${table} JOIN chunks c${hasTable(db, 'chunks_filter') ? ' INDEXED BY chunks_filter' : ''} ON c.id = ${table}.rowid
       WHERE ${table} MATCH ?${f.sql} ORDER BY ${table}.rowid DESC LIMIT ?`
    : `SELECT rowid AS id, bm25(${table}) AS rank FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC LIMIT ?`;
  const rows = db.prepare(sql).all(match, ...f.params, tier) as { id: number; rank: number }[];
  return rows.map((r) => ({ id: r.id, score: bm25RankToScore(r.rank), raw: r.rank }));
}

/**
 * Whether a MATCH expression finds more than `n` chunks, walking at most `n + 1` of its
 * matches (a bounded count: FTS5 stops at the LIMIT, unscored).
 */
export function ftsMatchesMoreThan(db: Db, table: FtsTable, match: string, n: number): boolean {
  const found = db.prepare(`SELECT COUNT(*) FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT ?)`).pluck().get(match, n + 1) as number;
  return found > n;
}

/**
 * BM25 of the chunks among `ids` that a MATCH expression finds (any order). One statement:
 * FTS5 computes a term's IDF by walking its doclist once per query, so a lookup per id
 * (`rowid IN (…)` is one FTS5 query per value) would walk it once per id. The `+` keeps the
 * id test out of FTS5: it walks the matches without scoring them and scores only these.
 */
export function ftsScoreIds(db: Db, table: FtsTable, match: string, ids: readonly number[]): Candidate[] {
  if (ids.length === 0) return [];
  const rows = db
    .prepare(`SELECT rowid AS id, bm25(${table}) AS rank FROM ${table} WHERE ${table} MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`)
    .all(match, JSON.stringify(ids)) as { id: number; rank: number }[];
  return rows.map((r) => ({ id: r.id, score: bm25RankToScore(r.rank), raw: r.rank }));
}

/**
 * Vector side through the `vec0` KNN index: its int8 cosine scan (schema.ts) — or, without a
 * filter, a SIMD scan of its int8 blocks (int8-scan.ts) — fetches `oversampled(limit)`
 * candidates, which are re-scored exactly against their float copies (exact-vectors.ts):
 * the scores and order of a float scan.
 */
export function vec0Candidates(db: Db, queryVec: Float32Array, limit: number, filter: CandidateFilter): Candidate[] {
  const spec = filterSpec(filter);
  // Unfiltered: vec0's int8 blocks scanned here with SIMD, cheaper than vec0's own int8 scan.
  const scanned = spec.source === null && spec.since === null && spec.before === null ? int8BlockCandidates(db, queryVec, oversampled(limit)) : null;
  if (scanned) return rescoreExact(db, queryVec, scanned, limit);
  const table = 'chunks_vec';
  const f = filterSql(filter, table);
  const ids = db
    .prepare(`SELECT rowid AS id FROM ${table} WHERE embedding MATCH vec_int8(?) AND k = ?${f.sql} ORDER BY distance`)
    .pluck()
    .all(int8Blob(int8Vec(unitVec(queryVec))), oversampled(limit), ...f.params) as (number | bigint)[];
  return rescoreExact(db, queryVec, ids.map(Number), limit);
}

/**
 * Vector side without sqlite-vec: scan every stored int8 vector, keep the `oversampled(limit)`
 * nearest by cosine, and re-score those exactly as `vec0Candidates` does (same scores, same
 * order).
 */
export function scanCandidates(db: Db, queryVec: Float32Array, limit: number, filter: CandidateFilter): Candidate[] {
  const table = 'chunks_vec';
  const f = filterSql(filter, table);
  const q = unitVec(queryVec);
  const m = oversampled(limit);
  const top: { id: number; sim: number }[] = [];
  const stmt = db.prepare(`SELECT rowid AS id, embedding FROM ${table} WHERE 1 = 1${f.sql}`);
  for (const row of stmt.iterate(...f.params) as Iterable<{ id: number; embedding: Buffer }>) {
    const v = row.embedding;
    let dot = 0;
    let norm = 0;
    for (let i = 0; i < v.length; i++) {
      const x = v.readInt8(i);
      dot += x * (q[i] ?? 0);
      norm += x * x;
    }
    const sim = norm > 0 ? dot / Math.sqrt(norm) : 0;
    if (top.length < m || sim > top[top.length - 1]!.sim) {
      // Insertion into a small sorted array: m is a few times maxResults × multiplier.
      let i = top.length;
      while (i > 0 && top[i - 1]!.sim < sim) i--;
      top.splice(i, 0, { id: Number(row.id), sim });
      if (top.length > m) top.pop();
    }
  }
  return rescoreExact(db, queryVec, top.map((t) => t.id), limit);
}
