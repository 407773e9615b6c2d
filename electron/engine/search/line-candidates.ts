/**
 * The vector side over line vectors (index/line-vectors.ts, issue 13 "turn isolation"): a
 * KNN over every stored line unit, then each chunk scored by its best line (max-sim). A
 * chunk of fifteen dialogue turns of which one answers the question scores that turn's
 * cosine, not the cosine of one averaged vector in which the answer is a fifteenth.
 *
 * A chunk's vector score is the mean of its best line's cosine and its own chunk vector's
 * cosine (measured on LoCoMo with all-MiniLM-L6-v2 before the stemmed keyword side,
 * docs/benchmarks.md: the best line alone
 * gave the same turn recall, 0.848 vs 0.837 without lines, but picked longer chunks — 65.3
 * lines per query, over the 64 budget — and lost 1.4 points on temporal questions, whose
 * answers need the chunk's date context; the mean kept the gain at 63.9 lines).
 *
 * Returns the same `{id, score, raw}` candidates as the chunk-vector side (ids are chunk
 * ids, `raw` the mixed cosine distance), so the merge, minScore and explain are unchanged.
 */
import type { Db } from '../index/db';
import { blobVec, unitVec } from '../index/store';
import { dot } from '../embed/vector';
import { scanCandidates, vec0Candidates, type Candidate, type CandidateFilter } from './candidates';
import { vectorScore } from './score';

/** vec0 refuses k above 4096. */
const MAX_K = 4096;

/**
 * Lines fetched per wanted chunk. The nearest lines cluster in few chunks (neighbouring
 * turns of one talk), and a line in a chunk overlap is stored under both chunks, so a
 * fan-out of 1 would return far fewer than `limit` chunks.
 */
export const LINE_FANOUT = 4;

/**
 * Chunks scored per wanted chunk. Taking the first `limit` chunks by best line and only then
 * mixing in their chunk cosine left out chunks whose mixed score was higher (a fine chunk
 * whose best line came 30th); scoring twice as many and keeping the best `limit` by the mixed
 * score measured better on LoCoMo with all-MiniLM-L6-v2 (turn recall 0.865 → 0.871, temporal
 * 0.935 → 0.950; 4× the same: docs/benchmarks.md).
 */
export const RESCORED = 2;

/** How many line vectors to fetch for `limit` chunks. */
function lineLimit(limit: number): number {
  return Math.min(MAX_K, limit * LINE_FANOUT);
}

/**
 * The `limit` chunks whose best line is nearest to `queryVec`, best first. `knn` runs the
 * line KNN elsewhere (the KNN worker thread, knn-worker.ts); without it, or if it fails,
 * the KNN runs here (vec0, or the fallback scan) — the same lines either way.
 */
export async function lineCandidates(
  db: Db,
  queryVec: Float32Array,
  limit: number,
  filter: CandidateFilter,
  kind: 'vec0' | 'fallback',
  knn?: (vec: Float32Array, k: number, filter: CandidateFilter) => Promise<Candidate[]>,
): Promise<Candidate[]> {
  const k = lineLimit(limit);
  const here = () => (kind === 'vec0' ? vec0Candidates(db, queryVec, k, filter, 'lines_vec') : scanCandidates(db, queryVec, k, filter, 'lines_vec'));
  const lines = knn && kind === 'vec0' ? await knn(queryVec, k, filter).catch(here) : here();
  return chunksOfLines(db, lines, queryVec, limit);
}

/** Nearest lines (best first) → the `limit` best of their chunks, scored as the header says. */
function chunksOfLines(db: Db, lines: readonly Candidate[], queryVec: Float32Array, limit: number): Candidate[] {
  const chunkOf = db.prepare('SELECT chunk_id FROM chunk_lines WHERE id = ?').pluck();
  const bestLine = new Map<number, number>();
  // Lines come best first: a chunk's first line is its best one.
  for (const l of lines) {
    const id = chunkOf.get(l.id) as number | undefined;
    if (id === undefined || bestLine.has(id)) continue;
    bestLine.set(id, 1 - l.raw);
    if (bestLine.size >= limit * RESCORED) break;
  }
  // Stored vectors are unit length (store.ts): the cosine is a dot product.
  const q = unitVec(queryVec);
  const vecOf = db.prepare('SELECT embedding FROM chunks_vec WHERE rowid = ?').pluck();
  const out: Candidate[] = [];
  for (const [id, line] of bestLine) {
    const blob = vecOf.get(BigInt(id)) as Buffer | undefined;
    const cos = (line + (blob ? dot(blobVec(blob), q) : line)) / 2;
    out.push({ id, score: vectorScore(1 - cos), raw: 1 - cos });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}
