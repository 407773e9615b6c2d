/**
 * The GGUF embedder spread over several embedding contexts (electron/engine/embed/gguf.ts
 * `contexts`): a batch must come back exactly as with one context — same vectors, same
 * order, progress to the total — and an abort must still stop it. Uses the tiny test GGUF
 * (testkit/tiny-gguf.ts), so it runs offline in seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGgufEmbedder, defaultContexts, type GgufEmbedder } from '../../electron/engine/embed/gguf';
import { tinyGgufPath } from '../../testkit/tiny-gguf';

let one: GgufEmbedder;
let three: GgufEmbedder;

beforeAll(async () => {
  const modelPath = await tinyGgufPath();
  one = await createGgufEmbedder({ modelPath, threads: 1, contexts: 1 });
  three = await createGgufEmbedder({ modelPath, threads: 1, contexts: 3 });
}, 180_000);

afterAll(async () => {
  await three?.dispose();
  await one?.dispose();
});

// Texts of very different lengths, so the contexts finish out of order.
const texts = [
  'coffee with milk in the morning',
  'the football match was cancelled because of the rain and the wind in the stadium last night',
  'car',
  '',
  'doctor appointment next tuesday at the clinic near the station',
  'banana bread recipe',
  'the train to the airport leaves at seven',
];

describe('GGUF embedder over several contexts', () => {
  it('returns the same vectors in the same order as one context', async () => {
    const a = await one.embed(texts);
    const b = await three.embed(texts);
    expect(b).toHaveLength(texts.length);
    for (let i = 0; i < texts.length; i++) expect(Array.from(b[i]!)).toEqual(Array.from(a[i]!));
  });

  it('gives a text the same vector alone as in any batch', async () => {
    const batched = await three.embed([...texts].reverse());
    for (const [i, t] of texts.entries()) {
      const [alone] = await one.embed([t]);
      expect(Array.from(batched[texts.length - 1 - i]!)).toEqual(Array.from(alone!));
    }
  });

  it('reports progress up to the total, once per text', async () => {
    const seen: [number, number][] = [];
    await three.embed(texts, { onProgress: (done, total) => seen.push([done, total]) });
    expect(seen).toEqual(texts.map((_, i) => [i + 1, texts.length]));
  });

  it('stops when aborted, and keeps working for the next call', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(three.embed(texts, { signal: ac.signal })).rejects.toThrow(/abort/i);
    const [v] = await three.embed(['car']);
    expect(Array.from(v!)).toEqual(Array.from((await one.embed(['car']))[0]!));
  });

  it('defaults to one context per core, at least 1 and at most 4', () => {
    expect([1, 2, 3, 4, 8, 16, 64].map((c) => defaultContexts(c))).toEqual([1, 2, 3, 4, 4, 4, 4]);
  });
});
