/** Vector arithmetic the tests compare embeddings with. */
import { dot } from '../../electron/engine/embed/vector';

/** Cosine similarity of two vectors of any length (0 when either is zero). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) na += (a[i] as number) ** 2;
  for (let i = 0; i < b.length; i++) nb += (b[i] as number) ** 2;
  if (na === 0 || nb === 0) return 0;
  return dot(a, b) / Math.sqrt(na * nb);
}
