/**
 * The sentence-transformers → GGUF converter (electron/engine/embed/import): the real
 * all-MiniLM-L6-v2, converted by scripts/fetch-test-models.mjs, embeds through
 * node-llama-cpp like sentence-transformers itself does (cosine ≥ 0.99 with reference
 * embeddings recorded once by scripts/st-reference-embeddings.py, including a text past the
 * model's 256-token max_seq_length); and folders it cannot convert fail with an error that
 * names the file and the reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGgufEmbedder, type GgufEmbedder } from '../../electron/engine/embed/gguf';
import { importSentenceTransformers } from '../../electron/engine/embed/import/index';
import { testModel } from '../helpers/test-models';
import { tmpDir, writeTree } from '../helpers/tmp';
import { cosine } from '../../electron/engine/embed/vector';

const embedder = testModel('embedder');
const fixture = JSON.parse(fs.readFileSync(path.resolve('tests/fixtures/st-reference/all-MiniLM-L6-v2.json'), 'utf8')) as {
  sentences: string[];
  embeddings: number[][];
};


describe.skipIf(!embedder.path)(`converted all-MiniLM-L6-v2 through node-llama-cpp${embedder.skip}`, () => {
  let e: GgufEmbedder;
  beforeAll(async () => {
    e = await createGgufEmbedder({ modelPath: embedder.path as string });
  });
  afterAll(async () => {
    await e?.dispose();
  });

  it('matches sentence-transformers on every reference sentence (cosine ≥ 0.99)', async () => {
    const got = await e.embed(fixture.sentences);
    expect(e.dims).toBe(384);
    const cosines = fixture.embeddings.map((ref, i) => cosine(ref, got[i] as Float32Array));
    expect(cosines.length).toBeGreaterThanOrEqual(20);
    for (const [i, c] of cosines.entries()) expect(c, fixture.sentences[i]?.slice(0, 60)).toBeGreaterThanOrEqual(0.99);
  });

  it('ranks a paraphrase above an unrelated sentence', async () => {
    const [q, para, other] = await e.embed(['The cat sits on the mat.', 'A feline rests on a rug.', 'Stock prices fell sharply today.'], { kind: 'query' });
    expect(cosine(q as Float32Array, para as Float32Array)).toBeGreaterThan(cosine(q as Float32Array, other as Float32Array) + 0.3);
  });
});

describe('PyTorch pytorch_model.bin (tests/fixtures/tiny-bert, saved by torch 2.13)', () => {
  const fixture = (name: string) => path.resolve('tests/fixtures/tiny-bert', name);

  it('gives exactly the same GGUF as the same model saved as safetensors', async () => {
    const out = tmpDir();
    const a = await importSentenceTransformers(fixture('safetensors'), { outFile: path.join(out, 'a.gguf'), f32: true, name: 'tiny-bert' });
    const b = await importSentenceTransformers(fixture('bin'), { outFile: path.join(out, 'b.gguf'), f32: true, name: 'tiny-bert' });
    expect(b).toMatchObject({ layers: 1, dims: 8, vocab: 16, pooling: 'mean' });
    expect(fs.readFileSync(b.outFile).equals(fs.readFileSync(a.outFile))).toBe(true);
  });

  it('reads F16 weights and the model embeds through node-llama-cpp like the F32 one', async () => {
    const out = tmpDir();
    const a = await importSentenceTransformers(fixture('safetensors'), { outFile: path.join(out, 'a.gguf') });
    const b = await importSentenceTransformers(fixture('bin-f16'), { outFile: path.join(out, 'b.gguf') });
    const [ea, eb] = [await createGgufEmbedder({ modelPath: a.outFile }), await createGgufEmbedder({ modelPath: b.outFile })];
    try {
      const [va] = await ea.embed(['the cats sat on a rug .']);
      const [vb] = await eb.embed(['the cats sat on a rug .']);
      expect(va!.some((x) => x !== 0)).toBe(true);
      expect(cosine(va!, vb!)).toBeGreaterThan(0.999);
    } finally {
      await ea.dispose();
      await eb.dispose();
    }
  });
});

describe('query prompts recorded by the import', () => {
  it("a model's sentence-transformers query prompt is put before queries only", async () => {
    const dir = tmpDir();
    fs.cpSync(path.resolve('tests/fixtures/tiny-bert/safetensors'), dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'config_sentence_transformers.json'), JSON.stringify({ prompts: { query: 'a dog ran . ', document: '' } }));
    const r = await importSentenceTransformers(dir, { outFile: path.join(dir, 'p.gguf'), name: 'tiny-prompted' });
    expect(r.prompts).toEqual({ query: 'a dog ran . ', document: undefined });
    const e = await createGgufEmbedder({ modelPath: r.outFile });
    try {
      const [q] = await e.embed(['the cat sat'], { kind: 'query' });
      const [d, prefixed] = await e.embed(['the cat sat', 'a dog ran . the cat sat']);
      expect(cosine(q!, d!)).toBeLessThan(0.999);
      expect(cosine(q!, prefixed!)).toBeGreaterThan(0.99999);
    } finally {
      await e.dispose();
    }
  });
});

describe('cairn models import: folders it cannot convert', () => {
  const bertConfig = { model_type: 'bert', hidden_size: 8, num_hidden_layers: 1, num_attention_heads: 2, intermediate_size: 16, max_position_embeddings: 16, vocab_size: 5 };

  it('a non-BERT model names config.json and its model_type', async () => {
    const dir = writeTree(tmpDir(), { 'config.json': JSON.stringify({ ...bertConfig, model_type: 'xlm-roberta' }), 'model.safetensors': '' });
    await expect(importSentenceTransformers(dir, { outDir: dir })).rejects.toThrow(/config\.json: model_type is "xlm-roberta"; only BERT models/);
  });

  it('a .bin that is not a torch.save zip says so, naming the file', async () => {
    const dir = writeTree(tmpDir(), { 'config.json': JSON.stringify(bertConfig), 'pytorch_model.bin': 'not a zip at all', 'vocab.txt': '[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n' });
    await expect(importSentenceTransformers(dir, { outDir: dir })).rejects.toThrow(/pytorch_model\.bin: not a zip file/);
  });

  it('a truncated safetensors file is reported as such, and no .gguf is left behind', async () => {
    const header = Buffer.from(JSON.stringify({ 'embeddings.word_embeddings.weight': { dtype: 'F32', shape: [5, 8], data_offsets: [0, 160] } }));
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(header.length));
    const dir = writeTree(tmpDir(), { 'config.json': JSON.stringify(bertConfig), 'vocab.txt': '[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n' });
    fs.writeFileSync(path.join(dir, 'model.safetensors'), Buffer.concat([len, header, Buffer.alloc(40)]));
    await expect(importSentenceTransformers(dir, { outDir: dir })).rejects.toThrow(/model\.safetensors: not a readable safetensors file: tensor embeddings\.word_embeddings\.weight: data runs past the end/);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.gguf') || f.includes('.partial'))).toEqual([]);
  });

  it('a pooling llama.cpp cannot run (max) names the Pooling config', async () => {
    const dir = writeTree(tmpDir(), {
      'modules.json': JSON.stringify([{ idx: 0, path: '', type: 'sentence_transformers.models.Transformer' }, { idx: 1, path: '1_Pooling', type: 'sentence_transformers.models.Pooling' }]),
      '1_Pooling/config.json': JSON.stringify({ pooling_mode_max_tokens: true }),
      'config.json': JSON.stringify(bertConfig),
      'model.safetensors': '',
      'vocab.txt': '[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n',
    });
    await expect(importSentenceTransformers(dir, { outDir: dir })).rejects.toThrow(/1_Pooling[/\\]config\.json: pooling pooling_mode_max_tokens cannot run in llama\.cpp/);
  });
});
