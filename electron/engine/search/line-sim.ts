/**
 * How close each line of the hits is to the question in meaning (the vector signal of line
 * picking): a line that answers in other words than the question's ("What does she do to
 * relax?" — "Painting's a fun way to unwind") shares no keyword with it. The line's vector comes
 * from the index's embedding cache when the index keeps line vectors (index/line-vectors.ts:
 * a line unit is cached under the sha256 of its trimmed text, the same key), else — for the
 * static embedder only, whose vectors cost a table look-up — it is computed now and remembered.
 * A model embedder's missing lines are not embedded at search time (tens of ms a line on a
 * shared CPU): those lines keep their keyword score alone.
 */
import type { Db } from '../index/db';
import type { Embedder } from '../embed/types';
import { sha256 } from '../index/chunker';
import { blobVec, unitVec } from '../index/store';
import { dot } from '../embed/vector';
import { readIdentity } from '../index/schema';
import { cacheReader } from '../index/vector-cache';

/** Line vectors of the static embedder remembered per process (embedder id and line hash → unit vector). */
const MEMO_MAX = 10_000;
const memo = new Map<string, Float32Array>();

function remember(key: string, v: Float32Array): void {
  if (memo.size >= MEMO_MAX) memo.delete(memo.keys().next().value!);
  memo.set(key, v);
}

/** cyrb53: a fast 53-bit string hash (public domain), as a base-36 key. */
function textHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * The cosine of each of `texts` to `queryVec` (unit length or not), or NaN where a line's
 * vector is not known; null when no line's is (no embedder, a model without line vectors).
 */
export async function lineSimilarities(db: Db, embedder: Embedder | null, queryVec: Float32Array | null, texts: readonly string[], signal?: AbortSignal): Promise<number[] | null> {
  if (!embedder || !queryVec || texts.length === 0) return null;
  const q = unitVec(queryVec);
  const id = readIdentity(db);
  // Remembered under a 53-bit hash of the line: sha256 of every line (and loading
  // node:crypto for it) cost a one-shot `cairn search` ~5 ms, and the text itself as the key
  // would keep alive the whole chunk text it was sliced from. Only the cache's keys need sha256.
  const keys = texts.map((t) => `${embedder.id}:${textHash(t.trim())}`);
  const vecs: (Float32Array | undefined)[] = keys.map((k) => memo.get(k));
  if (id?.lines === true && id.provider && id.model) {
    const get = cacheReader(db, id.provider, id.model);
    texts.forEach((t, i) => {
      if (vecs[i]) return;
      const b = get(sha256(t.trim()));
      if (b) vecs[i] = unitVec(blobVec(b));
    });
  }
  const missing = texts.map((_, i) => i).filter((i) => !vecs[i] && texts[i]!.trim());
  if (missing.length > 0 && embedder.provider === 'static') {
    const got = await embedder.embed(
      missing.map((i) => texts[i]!.trim()),
      { signal, kind: 'document' },
    );
    missing.forEach((i, j) => {
      const v = got[j];
      if (!v) return;
      vecs[i] = unitVec(v);
      remember(keys[i]!, vecs[i]);
    });
  }
  if (!vecs.some(Boolean)) return null;
  return vecs.map((v) => (v ? dot(v, q) : Number.NaN));
}
