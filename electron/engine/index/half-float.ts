/**
 * The compact float copy of a vector (schema 10): IEEE half precision, 2 bytes a component
 * instead of 4, plus one marker byte that makes the blob's length odd — a float32 blob's is a
 * multiple of 4 — so a reader tells the two apart without knowing the dims, and a cache
 * carried over from an older index (float32) reads as before. Kept in `embedding_cache`:
 * the exact re-score of the int8 candidates (search/exact-vectors.ts), the embedding cache
 * and line units read it. A half has 11 significant bits: a unit vector's cosine moves by
 * about 1e-5, far below the hundredths that separate LoCoMo's answers (docs/benchmarks.md,
 * "Issue 40").
 */
import { toHalf } from '../util/half';

/** Marker byte after the halves (any value: only the odd length matters). */
const MARK = 0x68;

let table: Float32Array | null = null;

/** Every half's value (256 KB, made on first use): decoding is one lookup a component. */
function halves(): Float32Array {
  if (table) return table;
  table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const s = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    table[h] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
  }
  return table;
}

/** `v` as a half-precision blob (2 bytes a component + the marker byte). */
export function halfBlob(v: Float32Array): Buffer {
  const out = Buffer.allocUnsafe(v.length * 2 + 1);
  for (let i = 0; i < v.length; i++) out.writeUInt16LE(toHalf(v[i]!), i * 2);
  out[v.length * 2] = MARK;
  return out;
}

/** Whether a stored vector blob is half precision (odd length) rather than float32. */
export function isHalfBlob(b: Uint8Array): boolean {
  return b.byteLength % 2 === 1;
}

/** A half-precision blob back to float32 (a new array). */
export function halfVec(b: Uint8Array): Float32Array {
  const t = halves();
  const n = (b.byteLength - 1) >> 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = t[b[2 * i]! | (b[2 * i + 1]! << 8)]!;
  return out;
}
