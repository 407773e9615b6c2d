import fs from 'node:fs';
import path from 'node:path';
import type { LlamaChat } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGgufEmbedder, retrievalPrompts, type GgufEmbedder } from '../../electron/engine/embed/gguf';
import { dot } from '../../electron/engine/embed/vector';
import { tinyGgufPath, TINY_GGUF } from '../../testkit/tiny-gguf';
import { tmpDir } from '../helpers/tmp';
import { LlamaLlm } from '../../electron/engine/llm/llama';
import { llamaRuntimeHolds } from '../../electron/engine/util/llama-runtime';

let embedder: GgufEmbedder;

beforeAll(async () => {
  // The first run of a fresh checkout builds the model (from the shipped potion vectors).
  embedder = await createGgufEmbedder({ modelPath: await tinyGgufPath(), threads: 1 });
}, 180_000);

afterAll(async () => {
  await embedder?.dispose();
});

describe('tiny GGUF test model', () => {
  it('is a valid GGUF file that llama.cpp loads, with dims from the model', async () => {
    const file = await tinyGgufPath();
    expect(fs.readFileSync(file).subarray(0, 4).toString('latin1')).toBe('GGUF');
    expect(embedder.dims).toBe(TINY_GGUF.dims);
    expect(embedder.provider).toBe('local');
    expect(embedder.model).toBe(path.basename(file));
    expect(embedder.id).toBe(`local:${path.basename(file)}`);
  });
});

describe('GGUF embedder', () => {
  it('returns one L2-normalised vector per text, deterministically', async () => {
    const texts = ['coffee with milk in the morning', 'the football match was cancelled'];
    const a = await embedder.embed(texts);
    const b = await embedder.embed(texts);
    expect(a).toHaveLength(2);
    for (const v of a) {
      expect(v).toHaveLength(TINY_GGUF.dims);
      expect(dot(v, v)).toBeCloseTo(1, 4);
    }
    expect(Array.from(a[0]!)).toEqual(Array.from(b[0]!));
    expect(Array.from(a[1]!)).toEqual(Array.from(b[1]!));
  });

  it('puts similar words and sentences closer than unrelated ones', async () => {
    const [car, truck, banana] = await embedder.embed(['car', 'truck', 'banana']);
    // potion's word vectors separate single words less than GloVe's did (0.16 vs 0.05 here).
    expect(dot(car!, truck!)).toBeGreaterThan(dot(car!, banana!) + 0.1);
    const [q, near, far] = await embedder.embed(['doctor appointment next tuesday', 'meeting with the doctor on tuesday', 'the football match in the stadium']);
    expect(dot(q!, near!)).toBeGreaterThan(dot(q!, far!) + 0.2);
  });

  it('gives a zero vector (never NaN) for empty text or text with no known word', async () => {
    for (const v of await embedder.embed(['', 'the of and', 'zzqxv qqqzzy'])) {
      expect(v).toHaveLength(TINY_GGUF.dims);
      expect(Array.from(v).every((x) => x === 0)).toBe(true);
    }
  });

  it('embeds a text longer than the context by its head instead of failing', async () => {
    const [v] = await embedder.embed(['coffee tea '.repeat(2000)]);
    expect(dot(v!, v!)).toBeCloseTo(1, 4);
  });

  it('reports progress per text and stops when aborted', async () => {
    const seen: number[] = [];
    await embedder.embed(['a cat', 'a dog', 'a bird'], { onProgress: (d) => seen.push(d) });
    expect(seen).toEqual([1, 2, 3]);
    const ac = new AbortController();
    ac.abort();
    await expect(embedder.embed(['cat'], { signal: ac.signal })).rejects.toThrow(/abort/i);
  });

  it('knows the retrieval prompts of asymmetric models (EmbeddingGemma, nomic-embed) and none for others', () => {
    expect(retrievalPrompts('hf_ggml-org_embeddinggemma-300m-qat-Q8_0.gguf')).toEqual({ query: 'task: search result | query: ', document: 'title: none | text: ' });
    expect(retrievalPrompts('nomic-embed-text-v1.5.Q8_0.gguf')?.query).toBe('search_query: ');
    expect(retrievalPrompts('tiny-potion-bert.gguf')).toBeUndefined();
  });

  it('shares one runtime: disposing a second embedder leaves the first working', async () => {
    const second = await createGgufEmbedder({ modelPath: await tinyGgufPath() });
    const [a] = await second.embed(['coffee']);
    await second.dispose();
    await second.dispose(); // idempotent
    await expect(second.embed(['coffee'])).rejects.toThrow(/already disposed/);
    const [b] = await embedder.embed(['coffee']);
    expect(Array.from(b!)).toEqual(Array.from(a!));
  });

  it('shares its runtime with the local chat model: one llama.cpp, and closing the chat model leaves the embedder working', async () => {
    expect(llamaRuntimeHolds()).toBe(1);
    // The tiny GGUF is an embedding model: a stand-in chat is enough, generation is not tested here.
    const llm = new LlamaLlm({ modelPath: await tinyGgufPath(), contextSize: 64, createChat: () => ({ dispose: () => {} }) as unknown as LlamaChat });
    expect(await llm.countTokens('coffee')).toBeGreaterThan(0); // loads the model
    expect(llamaRuntimeHolds()).toBe(2);
    const [before] = await embedder.embed(['coffee']);
    await llm.dispose();
    expect(llamaRuntimeHolds()).toBe(1);
    const [after] = await embedder.embed(['coffee']);
    expect(Array.from(after!)).toEqual(Array.from(before!));
  });

  it('names the file when the model is missing or not a GGUF', async () => {
    const dir = tmpDir();
    await expect(createGgufEmbedder({ modelPath: path.join(dir, 'nope.gguf') })).rejects.toThrow(/model file not found: .*nope\.gguf/);
    const bad = path.join(dir, 'bad.gguf');
    fs.writeFileSync(bad, 'this is not a model');
    await expect(createGgufEmbedder({ modelPath: bad })).rejects.toThrow(/cannot load .*bad\.gguf: not a usable GGUF model: not a GGUF file/);
  });
});
