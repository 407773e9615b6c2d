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

/**
 * The value of a half whose exponent is all zeros (zero, subnormal) or all ones (infinity,
 * NaN): the rare ones, computed (a normal half is rebuilt bit by bit in halfVec).
 */
function special(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const m = h & 0x3ff;
  return (h & 0x7c00) === 0 ? s * m * 2 ** -24 : m ? NaN : s * Infinity;
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

/**
 * A half-precision blob back to float32 (a new array). A normal half becomes the float32
 * with the same sign and mantissa and the exponent rebased from 15 to 127 (exact: every half
 * is a float32), written as bits: no table to build first, which cost a one-shot `cairn
 * search` ~5 ms for the few dozen vectors it re-scores.
 */
export function halfVec(b: Uint8Array): Float32Array {
  const n = (b.byteLength - 1) >> 1;
  const out = new Float32Array(n);
  const bits = new Uint32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const h = b[2 * i]! | (b[2 * i + 1]! << 8);
    const e = h & 0x7c00;
    if (e !== 0 && e !== 0x7c00) bits[i] = ((h & 0x8000) << 16) | (((h & 0x7fff) + 0x1c000) << 13);
    else out[i] = special(h);
  }
  return out;
}
