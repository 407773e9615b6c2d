/**
 * The exact float vectors of chunks, read from their one copy: `embedding_cache`, the row
 * that `chunks.embed_id` names (schema 11; before, `chunks.embed_hash` with the index's
 * embedder, schema.ts). `chunks_vec` and the
 * KNN worker's copy hold int8 vectors that only choose candidates; every score the vector
 * side reports is computed here, from the floats, the way vec0's float scan computed it
 * (unit vectors, L2 distance in float32 steps, cosine distance = L2² / 2), so the scores and
 * the order are the ones a float index gave.
 */
import type Database from 'better-sqlite3';
import type { Db } from '../index/db';
import { readIdentity } from '../index/schema';
import { floatJoin } from '../index/vector-cache';
import { blobVec, unitVec } from '../index/store';
import { vectorScore } from './score';

/** One re-scored chunk (the vector side's candidate shape, candidates.ts). */
export interface ExactHit {
  id: number;
  score: number;
  /** Cosine distance. */
  raw: number;
}

/**
 * Candidates fetched from an int8 scan per wanted result before the exact re-score: the
 * int8 order puts the true top `limit` inside its top `limit × 4` (recall 1.0 at 100k and
 * 1M × 384 d, docs/benchmarks.md).
 */
export const OVERSAMPLE = 4;

/** Candidates an int8 scan fetches for `limit` results. */
export function oversampled(limit: number): number {
  return Math.max(limit * OVERSAMPLE, limit + 32);
}

/** Ids per read statement (SQLite's default limit of host parameters is far above). */
const BATCH = 256;

interface Reads {
  stamp: string;
  /** The join to the float copy in the file's layout (vector-cache.ts), null with no embedder. */
  join: { on: string; args: string[] } | null;
  stmts: Map<string, Database.Statement>;
}
const readsOf = new WeakMap<Db, Reads>();

/** The embedder the index was built with, re-read when the file changes under the connection (a rebuild). */
function reads(db: Db): Reads {
  const stamp = `${String(db.pragma('data_version', { simple: true }))}:${String(db.prepare('SELECT total_changes()').pluck().get())}`;
  let r = readsOf.get(db);
  if (!r || r.stamp !== stamp) {
    const id = readIdentity(db);
    r = { stamp, join: id?.provider && id.model ? floatJoin(db, id.provider, id.model) : null, stmts: r?.stmts ?? new Map() };
    readsOf.set(db, r);
  }
  return r;
}

/**
 * The float vectors of `ids` (chunk ids), unit length, read in batches; a chunk without a
 * vector (none embedded, or the index has no embedder) is absent from the map.
 */
export function exactVectors(db: Db, ids: readonly number[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  const r = reads(db);
  const join = r.join;
  if (!join || ids.length === 0) return out;
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH);
    const name = `${join.on}:${part.length}`;
    let stmt = r.stmts.get(name);
    if (!stmt) {
      stmt = db.prepare(`SELECT c.id, e.embedding FROM chunks c JOIN embedding_cache e ON ${join.on} WHERE c.id IN (${part.map(() => '?').join(',')})`);
      stmt.raw(true);
      r.stmts.set(name, stmt);
    }
    const rows = stmt.all(...join.args, ...part) as [number, Buffer][];
    for (const [id, blob] of rows) out.set(Number(id), unitVec(blobVec(blob)));
  }
  return out;
}

/**
 * Cosine distance of two unit vectors as vec0's float L2 scan reported it: the L2 distance
 * summed in float32 steps, `sqrtf`, then `L2² / 2`.
 */
export function exactCosine(v: Float32Array, q: Float32Array): number {
  const fr = Math.fround;
  let sum = 0;
  for (let i = 0; i < v.length; i++) {
    const d = fr(v[i]! - (q[i] ?? 0));
    sum = fr(sum + fr(d * d));
  }
  const distance = fr(Math.sqrt(sum));
  return (distance * distance) / 2;
}

/** Order of the vector side: nearest first, ties by id (an exact scan's order). */
export function byDistance(a: ExactHit, b: ExactHit): number {
  return a.raw - b.raw || a.id - b.id;
}

/**
 * The `limit` nearest of the candidate chunks `ids` to `queryVec`, by their exact float
 * vectors, nearest first. Chunks whose float copy is missing are left out.
 */
export function rescoreExact(db: Db, queryVec: Float32Array, ids: readonly number[], limit: number): ExactHit[] {
  const q = unitVec(queryVec);
  const vecs = exactVectors(db, ids);
  const hits: ExactHit[] = [];
  for (const [id, v] of vecs) {
    const cosine = exactCosine(v, q);
    hits.push({ id, score: vectorScore(cosine), raw: cosine });
  }
  return hits.sort(byDistance).slice(0, limit);
}
