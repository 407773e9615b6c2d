/**
 * The vector side over line vectors (index/line-vectors.ts "turn isolation"): each
 * candidate chunk is scored by its *best line* as well as by its own vector, so a chunk of
 * fifteen dialogue turns of which one answers the question is not judged by one averaged
 * vector in which the answer is a fifteenth.
 *
 * A chunk's vector score is the mean of its best line's cosine and its own chunk cosine
 * (measured on LoCoMo with all-MiniLM-L6-v2, docs/benchmarks.md: the best line alone picked
 * longer chunks, over the 64-line budget, and lost temporal questions, whose answers need the
 * chunk's date context).
 *
 * Which chunks: the candidates of both sides — the chunk KNN's nearest `limit ×
 * LINE_POOL` chunks and the keyword side's — not a KNN over every line. A memory keeps ~7
 * line vectors per chunk, so a line KNN was an exact scan of 7× the chunk vectors (at 100k
 * chunks × 384 d, ~1 GB per query); re-scoring the candidates reads ~8 lines each, whatever
 * the memory's size. On LoCoMo the two choose the same (docs/benchmarks.md, round 4).
 *
 * Returns the same `{id, score, raw}` candidates as the chunk-vector side (ids are chunk
 * ids, `raw` the mixed cosine distance), best first, so the merge, minScore and explain are
 * unchanged.
 */
import type { Db } from '../index/db';
import { blobVec, unitVec } from '../index/store';
import { dot } from '../embed/vector';
import { type Candidate } from './candidates';
import { exactVectors } from './exact-vectors';
import { vectorScore } from './score';

/**
 * Chunk-KNN candidates fetched per wanted chunk when lines re-score them: a chunk whose
 * averaged vector is diluted but whose one line answers sits below the first `limit`
 * (LoCoMo, MiniLM: 1× 0.868, 2× 0.870, 4× 0.870 turn recall; docs/benchmarks.md).
 */
export const LINE_POOL = 2;

/** Prepared reads of one index's line vectors. */
function vectorReads(db: Db) {
  return {
    lineIds: db.prepare('SELECT id FROM chunk_lines WHERE chunk_id = ?').pluck(),
    lineVec: db.prepare('SELECT embedding FROM lines_vec WHERE rowid = ?').pluck(),
  };
}

/**
 * The `limit` best of the chunks `ids` by mean(best line cosine, chunk cosine) to
 * `queryVec`, best first. A chunk without stored lines scores its chunk cosine; one without a
 * vector at all (not embedded yet) is left out, as the chunk KNN would leave it out.
 */
export function rescoreByLines(db: Db, queryVec: Float32Array, ids: Iterable<number>, limit: number): Candidate[] {
  const q = unitVec(queryVec);
  const r = vectorReads(db);
  const out: Candidate[] = [];
  // The chunks' exact float vectors, from their one copy (exact-vectors.ts), unit length.
  const chunkVecs = exactVectors(db, [...new Set(ids)]);
  for (const [id, vec] of chunkVecs) {
    // Stored line vectors are unit length (store.ts): the cosine is a dot product.
    const chunk = dot(vec, q);
    let best = -Infinity;
    for (const lineId of r.lineIds.all(id) as number[]) {
      const lb = r.lineVec.get(BigInt(lineId)) as Buffer | undefined;
      if (lb) best = Math.max(best, dot(blobVec(lb), q));
    }
    const cos = best === -Infinity ? chunk : (best + chunk) / 2;
    out.push({ id, score: vectorScore(1 - cos), raw: 1 - cos });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
}
