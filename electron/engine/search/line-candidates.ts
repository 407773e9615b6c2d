/**
 * The vector side over line vectors (index/line-vectors.ts, issue 13 "turn isolation"): a
 * KNN over every stored line unit, then each chunk scored by its best line (max-sim). A
 * chunk of fifteen dialogue turns of which one answers the question scores that turn's
 * cosine, not the cosine of one averaged vector in which the answer is a fifteenth.
 *
 * Returns the same `{id, score, raw}` candidates as the chunk-vector side (ids are chunk
 * ids, `raw` the best line's cosine distance), so the merge, minScore and explain are
 * unchanged.
 */
import type { Db } from '../index/db';
import { scanCandidates, vec0Candidates, type Candidate, type CandidateFilter } from './candidates';

/** vec0 refuses k above 4096. */
const MAX_K = 4096;

/**
 * Lines fetched per wanted chunk. The nearest lines cluster in few chunks (neighbouring
 * turns of one talk), and a line in a chunk overlap is stored under both chunks, so a
 * fan-out of 1 would return far fewer than `limit` chunks.
 */
export const LINE_FANOUT = 4;

/** The `limit` chunks whose best line is nearest to `queryVec`, best first. */
export function lineCandidates(db: Db, queryVec: Float32Array, limit: number, filter: CandidateFilter, kind: 'vec0' | 'fallback'): Candidate[] {
  const k = Math.min(MAX_K, limit * LINE_FANOUT);
  const lines = kind === 'vec0' ? vec0Candidates(db, queryVec, k, filter, 'lines_vec') : scanCandidates(db, queryVec, k, filter, 'lines_vec');
  const chunkOf = db.prepare('SELECT chunk_id FROM chunk_lines WHERE id = ?').pluck();
  const best = new Map<number, Candidate>();
  // Lines come best first: a chunk's first line is its best one.
  for (const l of lines) {
    const id = chunkOf.get(l.id) as number | undefined;
    if (id === undefined || best.has(id)) continue;
    best.set(id, { id, score: l.score, raw: l.raw });
    if (best.size >= limit) break;
  }
  return [...best.values()];
}
