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
import { toHalf } from '../../electron/engine/embed/import/gguf-writer';
import { SafetensorsFile } from '../../electron/engine/embed/import/safetensors';
import { testEmbedderSource, testModel } from '../helpers/test-models';
import { tmpDir, writeTree } from '../helpers/tmp';
import { cosine } from '../helpers/vectors';

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

  it('imported with F16 matrices (models import --f16) it matches sentence-transformers too, and the default Q8_0 file is smaller', async () => {
    const out = path.join(tmpDir(), 'f16.gguf');
    const r = await importSentenceTransformers(testEmbedderSource()!, { outFile: out, f16: true });
    expect(fs.statSync(embedder.path!).size).toBeLessThan(r.bytes * 0.85);
    const f16 = await createGgufEmbedder({ modelPath: out });
    try {
      const got = await f16.embed(fixture.sentences);
      for (const [i, ref] of fixture.embeddings.entries()) expect(cosine(ref, got[i] as Float32Array), fixture.sentences[i]?.slice(0, 60)).toBeGreaterThanOrEqual(0.99);
    } finally {
      await f16.dispose();
    }
  });

  it('ranks a paraphrase above an unrelated sentence', async () => {
    const [q, para, other] = await e.embed(['The cat sits on the mat.', 'A feline rests on a rug.', 'Stock prices fell sharply today.'], { kind: 'query' });
    expect(cosine(q as Float32Array, para as Float32Array)).toBeGreaterThan(cosine(q as Float32Array, other as Float32Array) + 0.3);
  });
});

/** A copy of the tiny-bert safetensors fixture with every F32 tensor stored as F16. */
function f16Copy(dir: string): void {
  const src = new SafetensorsFile(path.resolve('tests/fixtures/tiny-bert/safetensors/model.safetensors'));
  try {
    const header: Record<string, unknown> = {};
    const parts: Buffer[] = [];
    let at = 0;
    for (const [name, e] of src.tensors) {
      const v = src.readF32(name);
      const b = Buffer.alloc(v.length * 2);
      for (let i = 0; i < v.length; i++) b.writeUInt16LE(toHalf(v[i] as number), i * 2);
      header[name] = { dtype: 'F16', shape: e.shape, data_offsets: [at, at + b.length] };
      parts.push(b);
      at += b.length;
    }
    const head = Buffer.from(JSON.stringify(header));
    const len = Buffer.alloc(8);
    len.writeBigUInt64LE(BigInt(head.length));
    fs.cpSync(path.resolve('tests/fixtures/tiny-bert/safetensors'), dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'model.safetensors'), Buffer.concat([len, head, ...parts]));
  } finally {
    src.close();
  }
}

describe('F16 safetensors weights (tests/fixtures/tiny-bert)', () => {
  it('are widened on import and the model embeds through node-llama-cpp like the F32 one', async () => {
    const out = tmpDir();
    const f16 = path.join(out, 'f16');
    f16Copy(f16);
    const a = await importSentenceTransformers(path.resolve('tests/fixtures/tiny-bert/safetensors'), { outFile: path.join(out, 'a.gguf') });
    const b = await importSentenceTransformers(f16, { outFile: path.join(out, 'b.gguf') });
    expect(b).toMatchObject({ layers: 1, dims: 8, vocab: 16, pooling: 'mean' });
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

  it('a pickled pytorch_model.bin is refused, naming the file and what to use instead', async () => {
    const dir = tmpDir();
    // The start of a torch.save zip whose pickle is cut short (it hung the old unpickler).
    fs.cpSync(path.resolve('tests/fixtures/tiny-bert/safetensors'), dir, { recursive: true });
    fs.rmSync(path.join(dir, 'model.safetensors'));
    fs.writeFileSync(path.join(dir, 'pytorch_model.bin'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x80, 0x02, 0x63, 0x61, 0x62]));
    await expect(importSentenceTransformers(dir, { outDir: dir })).rejects.toThrow(/pytorch_model\.bin: PyTorch pickle weights are not imported; download the model's model\.safetensors/);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.gguf') || f.includes('.partial'))).toEqual([]);
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
