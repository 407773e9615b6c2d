/**
 * The one-shot vector side's scan of vec0's own int8 vectors (schema.ts), without the
 * KNN worker's in-memory copy: `chunks_vec`'s 1,024-vector blocks are read one statement
 * row at a time and scanned with WebAssembly SIMD (knn-scan.wat `scan_cos`: int16 query ×
 * int8 rows, the row norm in the same pass), keeping the best `m` by the int8 cosine; the
 * caller re-scores them exactly (exact-vectors.ts). sqlite-vec 0.1.9's own int8 cosine scan
 * recomputes both norms per row in scalar code: about twice the CPU of its float scan
 * (docs/benchmarks.md).
 *
 * Only for a query without a source or date filter (vec0 applies those from its metadata
 * tables) and dims a multiple of 16; null otherwise, or when the storage does not have
 * sqlite-vec 0.1.9's shape: the caller asks vec0 then.
 */
import type { Db } from '../index/db';
import { hasTable } from '../index/schema';
import { unitVec } from '../index/store';
import { scanInstance, WASM_PAGE, writeQuery } from './vector-matrix';

/** Ids of the `m` chunks nearest to `queryVec` by the int8 cosine, nearest first; null = not this way. */
export function int8BlockCandidates(db: Db, queryVec: Float32Array, m: number): number[] | null {
  const dims = queryVec.length;
  if (dims % 16 !== 0 || m <= 0) return null;
  if (!hasTable(db, 'chunks_vec_chunks') || !hasTable(db, 'chunks_vec_vector_chunks00')) return null;
  let stmt;
  try {
    stmt = db.prepare('SELECT c.size, c.validity, c.rowids, v.vectors FROM chunks_vec_chunks c JOIN chunks_vec_vector_chunks00 v ON v.rowid = c.chunk_id');
  } catch {
    return null;
  }
  const blocks = dims / 16;
  const ex = scanInstance();
  const qOff = 0;
  const outOff = blocks * 32;
  let rowsOff = 0;
  const room = (rows: number) => {
    rowsOff = outOff + rows * 4;
    const need = rowsOff + rows * dims;
    if (need > ex.memory.buffer.byteLength) ex.memory.grow(Math.ceil((need - ex.memory.buffer.byteLength) / WASM_PAGE));
  };
  room(1024);
  if (!writeQuery(ex, qOff, unitVec(queryVec), blocks)) return [];
  let keep: { id: number; s: number }[] = [];
  let floor = -Infinity;
  for (const [size, validity, rowids, vectors] of stmt.raw().iterate() as IterableIterator<[number, Buffer, Buffer, Buffer]>) {
    if (rowids.length !== size * 8 || validity.length * 8 < size || vectors.length !== size * dims) return null;
    room(size);
    new Uint8Array(ex.memory.buffer, rowsOff, vectors.length).set(vectors);
    ex.scan_cos(qOff, rowsOff, outOff, size, blocks);
    const out = new Float32Array(ex.memory.buffer, outOff, size);
    for (let i = 0; i < size; i++) {
      const s = out[i]!;
      if (s < floor || !(validity[i >> 3]! & (1 << (i & 7)))) continue;
      keep.push({ id: Number(rowids.readBigInt64LE(i * 8)), s });
      if (keep.length >= 2 * m) {
        keep.sort((a, b) => b.s - a.s || a.id - b.id);
        keep = keep.slice(0, m);
        floor = keep[m - 1]!.s;
      }
    }
  }
  keep.sort((a, b) => b.s - a.s || a.id - b.id);
  return keep.slice(0, m).map((k) => k.id);
}
