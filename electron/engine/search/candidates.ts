/**
 * The two candidate sides of the hybrid search: BM25 over `chunks_fts`, and KNN over
 * `chunks_vec` (sqlite-vec `vec0`; or an in-process cosine scan of the fallback table when
 * sqlite-vec could not load — same scores, same order). Both honour the source and date
 * filters and return at most `limit` `{id, score}` pairs, best first.
 */
import type { Db } from '../index/db';
import { blobVec, vecBlob } from '../index/store';
import type { MemorySource } from '../../../shared/types/search';
import { buildFtsQuery, pruneTerms } from './fts-query';
import { bm25RankToScore, vectorScore } from './score';

export interface CandidateFilter {
  sources: readonly MemorySource[];
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

function filterSql(f: CandidateFilter, alias: string): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (f.sources.length === 1) {
    parts.push(`${alias}.source = ?`);
    params.push(f.sources[0]);
  }
  if (f.since) {
    parts.push(`${alias}.day >= ?`);
    params.push(f.since);
  }
  if (f.before) {
    parts.push(`${alias}.day < ?`);
    params.push(f.before);
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** BM25 side: ORed terms, ranked by FTS5's bm25(); empty when the query has no term. */
export function keywordCandidates(db: Db, query: string, limit: number, filter: CandidateFilter): Candidate[] {
  const match = buildFtsQuery(query, (terms) => {
    if (terms.length <= 1) return terms;
    try {
      // The chunk count is kept in meta by each sync (COUNT(*) would scan 100k rows per query).
      const stored = db.prepare("SELECT value FROM meta WHERE key = 'chunkCount'").pluck().get() as string | undefined;
      const total = stored !== undefined ? Number(stored) : (db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number);
      const doc = db.prepare('SELECT doc FROM chunks_fts_vocab WHERE term = ?').pluck();
      // A phrase matches at most as many chunks as its rarest word.
      const df = (t: string[]) => Math.min(...t.map((w) => (doc.get(w) as number | undefined) ?? 0));
      return pruneTerms(terms, df, total);
    } catch {
      return terms; // an index without the vocab view: search every term
    }
  });
  if (!match) return [];
  const f = filterSql(filter, 'c');
  const rows = db
    .prepare(
      `SELECT c.id AS id, bm25(chunks_fts) AS rank FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
       WHERE chunks_fts MATCH ?${f.sql} ORDER BY rank LIMIT ?`,
    )
    .all(match, ...f.params, limit) as { id: number; rank: number }[];
  return rows.map((r) => ({ id: r.id, score: bm25RankToScore(r.rank), raw: r.rank }));
}

/** Vector side through the `vec0` KNN index. */
export function vec0Candidates(db: Db, queryVec: Float32Array, limit: number, filter: CandidateFilter): Candidate[] {
  const f = filterSql(filter, 'chunks_vec');
  const rows = db
    .prepare(`SELECT rowid AS id, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ?${f.sql} ORDER BY distance`)
    .all(vecBlob(queryVec), limit, ...f.params) as { id: number; distance: number }[];
  return rows.map((r) => ({ id: Number(r.id), score: vectorScore(r.distance), raw: r.distance }));
}

/**
 * Vector side without sqlite-vec: scan every stored vector and keep the top `limit` by
 * cosine distance computed exactly as vec0 does (`1 − a·b / (|a||b|)` in float math).
 */
export function scanCandidates(db: Db, queryVec: Float32Array, limit: number, filter: CandidateFilter): Candidate[] {
  const f = filterSql(filter, 'chunks_vec');
  let qn = 0;
  for (let i = 0; i < queryVec.length; i++) qn += queryVec[i]! * queryVec[i]!;
  qn = Math.sqrt(qn);
  const top: { id: number; distance: number }[] = [];
  const stmt = db.prepare(`SELECT rowid AS id, embedding FROM chunks_vec WHERE 1 = 1${f.sql}`);
  for (const row of stmt.iterate(...f.params) as Iterable<{ id: number; embedding: Buffer }>) {
    const v = blobVec(row.embedding);
    let dot = 0;
    let vn = 0;
    for (let i = 0; i < v.length; i++) {
      dot += v[i]! * (queryVec[i] ?? 0);
      vn += v[i]! * v[i]!;
    }
    const denom = Math.sqrt(vn) * qn;
    const distance = denom > 0 ? 1 - dot / denom : 1;
    if (top.length < limit || distance < top[top.length - 1]!.distance) {
      // Insertion into a small sorted array: limit is maxResults × multiplier (tens).
      let i = top.length;
      while (i > 0 && top[i - 1]!.distance > distance) i--;
      top.splice(i, 0, { id: Number(row.id), distance });
      if (top.length > limit) top.pop();
    }
  }
  return top.map((r) => ({ id: r.id, score: vectorScore(r.distance), raw: r.distance }));
}
