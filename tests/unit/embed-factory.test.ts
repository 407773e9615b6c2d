import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemorySearchSchema } from '../../electron/engine/config/schema';
import { createEmbedder, createEmbedderForSettings, planEmbedder } from '../../electron/engine/embed/factory';
import { tinyGgufPath } from '../../testkit/tiny-gguf';
import { tmpDir } from '../helpers/tmp';

// The first run of a fresh checkout builds the tiny GGUF once (from the shipped potion vectors).
beforeAll(async () => {
  await tinyGgufPath();
}, 180_000);

const settings = (over: Record<string, unknown> = {}) => MemorySearchSchema.parse(over);

/** A new state dir's models dir: empty (the static model ships with Cairn). */
async function modelsDir(): Promise<string> {
  const dir = path.join(tmpDir(), 'models');
  fs.mkdirSync(dir);
  return dir;
}

describe('createEmbedder auto order', () => {
  it('with nothing configured falls to the shipped static embeddings, offline, writing nothing', async () => {
    const dir = await modelsDir();
    const choice = await createEmbedder(settings(), { modelsDir: dir, env: {} });
    expect(choice.embedder?.provider).toBe('static');
    expect(choice.embedder?.dims).toBe(256);
    expect(choice.fallbackFrom).toBeUndefined();
    expect(choice.reason).toMatch(/^static:potion-base-8M-int8 \(auto: /);
    // Nothing converted or copied into the state dir: the model is read where Cairn ships it.
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(choice.skipped.map((s) => s.provider)).toEqual(['local', 'openai', 'gemini', 'voyage']);
    expect(choice.skipped[1]?.reason).toMatch(/OPENAI_API_KEY/);
  });

  it('prefers OpenAI, then Gemini, then Voyage by which key is set', async () => {
    const dir = await modelsDir();
    const pick = async (env: NodeJS.ProcessEnv, over = {}) => (await createEmbedder(settings(over), { modelsDir: dir, env })).embedder?.id;
    expect(await pick({ OPENAI_API_KEY: 'sk', GEMINI_API_KEY: 'g', VOYAGE_API_KEY: 'v' })).toBe('openai:text-embedding-3-small');
    expect(await pick({ GEMINI_API_KEY: 'g', VOYAGE_API_KEY: 'v' })).toBe('gemini:gemini-embedding-001');
    expect(await pick({ GOOGLE_API_KEY: 'g' })).toBe('gemini:gemini-embedding-001');
    expect(await pick({ VOYAGE_API_KEY: 'v' })).toBe('voyage:voyage-4-large');
    expect(await pick({}, { remote: { apiKey: 'from-config' } })).toBe('openai:text-embedding-3-small');
    expect(await pick({ OPENAI_API_KEY: '  ' })).toBe('static:potion-base-8M-int8'); // blank key = no key
    // memorySearch.model goes to the provider it names; others keep their defaults.
    expect(await pick({ GEMINI_API_KEY: 'g' }, { model: 'text-embedding-3-large' })).toBe('gemini:gemini-embedding-001');
    expect(await pick({ GEMINI_API_KEY: 'g' }, { model: 'text-embedding-004' })).toBe('gemini:text-embedding-004');
    expect(await pick({ OPENAI_API_KEY: 'k' }, { model: 'text-embedding-3-large' })).toBe('openai:text-embedding-3-large');
    expect(await pick({ VOYAGE_API_KEY: 'v' }, { model: 'voyage-3-lite' })).toBe('voyage:voyage-3-lite');
  });

  it('uses a local GGUF first when local.modelPath exists', async () => {
    const choice = await createEmbedder(settings({ local: { modelPath: await tinyGgufPath() } }), { modelsDir: await modelsDir(), env: { OPENAI_API_KEY: 'sk' } });
    try {
      expect(choice.embedder?.provider).toBe('local');
      expect(choice.reason).toMatch(/auto: model file .*tiny-potion-bert/);
    } finally {
      await choice.embedder?.dispose();
    }
  });

  it('finds the default model once it is downloaded into the models dir', async () => {
    const dir = await modelsDir();
    // node-llama-cpp's file name for the default hf: URI.
    fs.copyFileSync(await tinyGgufPath(), path.join(dir, 'hf_ggml-org_embeddinggemma-300m-qat-Q8_0.gguf'));
    const plan = await planEmbedder(settings(), { modelsDir: dir, env: {} });
    expect(plan[0]).toMatchObject({ provider: 'local', available: true });
    const choice = await createEmbedder(settings(), { modelsDir: dir, env: {} });
    try {
      expect(choice.embedder?.model).toBe('hf_ggml-org_embeddinggemma-300m-qat-Q8_0.gguf');
    } finally {
      await choice.embedder?.dispose();
    }
  });

  it('falls back past a local model that does not load, and says so', async () => {
    const dir = await modelsDir();
    const broken = path.join(dir, 'broken.gguf');
    fs.writeFileSync(broken, 'not a gguf');
    const choice = await createEmbedder(settings({ local: { modelPath: broken } }), { modelsDir: dir, env: {} });
    expect(choice.embedder?.provider).toBe('static');
    expect(choice.fallbackFrom).toBe('local');
    expect(choice.skipped[0]).toMatchObject({ provider: 'local', reason: expect.stringMatching(/cannot load .*broken\.gguf/) });
  });

  it('skips a missing local.modelPath quietly in auto mode', async () => {
    const choice = await createEmbedder(settings({ local: { modelPath: 'nope.gguf' } }), { modelsDir: await modelsDir(), env: {} });
    expect(choice.embedder?.provider).toBe('static');
    expect(choice.fallbackFrom).toBeUndefined();
    expect(choice.skipped[0]?.reason).toMatch(/nope\.gguf does not exist/);
  });
});

describe('createEmbedder explicit provider', () => {
  it('an explicit provider wins over auto order', async () => {
    const choice = await createEmbedder(settings({ provider: 'static' }), { modelsDir: await modelsDir(), env: { OPENAI_API_KEY: 'sk' } });
    expect(choice.embedder?.provider).toBe('static');
    expect(choice.reason).toMatch(/configured/);
    const gem = await createEmbedder(settings({ provider: 'gemini', model: 'text-embedding-004', remote: { apiKey: 'cfg' } }), { modelsDir: await modelsDir(), env: {} });
    expect(gem.embedder?.id).toBe('gemini:text-embedding-004');
    expect(gem.embedder?.dims).toBe(768);
  });

  it('an unavailable explicit provider means FTS-only with the reason, unless a fallback is set', async () => {
    const dir = await modelsDir();
    const none = await createEmbedder(settings({ provider: 'voyage' }), { modelsDir: dir, env: {} });
    expect(none.embedder).toBeUndefined();
    expect(none.fallbackFrom).toBe('voyage');
    expect(none.reason).toMatch(/no embedder available \(voyage: no API key \(VOYAGE_API_KEY.*full-text search only/);
    const fb = await createEmbedder(settings({ provider: 'voyage', fallback: 'static' }), { modelsDir: dir, env: {} });
    expect(fb.embedder?.provider).toBe('static');
    expect(fb.fallbackFrom).toBe('voyage');
    expect(fb.reason).toMatch(/fallback for voyage/);
  });

  it('a config naming the GloVe static model of earlier versions loads potion, with a warning', async () => {
    const dir = await modelsDir();
    for (const model of ['glove-100d-int8-sif', 'glove-100d-int8']) {
      const warnings: string[] = [];
      const e = await createEmbedderForSettings(settings({ provider: 'static', model }), { modelsDir: dir, env: {}, warn: (m) => warnings.push(m) });
      expect(e?.id).toBe('static:potion-base-8M-int8');
      expect(warnings).toEqual([
        `memory search embedder: memory.search.model "${model}" names the GloVe static vectors, which Cairn no longer ships: using potion-base-8M-int8 (an index built with another model is rebuilt once)`,
      ]);
      // Status and doctor say so too (the plan's detail).
      expect((await planEmbedder(settings({ provider: 'static', model }), { modelsDir: dir }))[0]?.detail).toMatch(/GloVe static vectors, which Cairn no longer ships/);
    }
    const quiet: string[] = [];
    await createEmbedderForSettings(settings({ provider: 'static', model: 'potion-base-8M-int8' }), { modelsDir: dir, env: {}, warn: (m) => quiet.push(m) });
    await createEmbedderForSettings(settings({ provider: 'static' }), { modelsDir: dir, env: {}, warn: (m) => quiet.push(m) });
    expect(quiet).toEqual([]);
  });

  it('"none" and enabled: false give no embedder', async () => {
    const dir = await modelsDir();
    expect((await createEmbedder(settings({ provider: 'none' }), { modelsDir: dir, env: {} })).embedder).toBeUndefined();
    const off = await createEmbedder(settings({ enabled: false }), { modelsDir: dir, env: { OPENAI_API_KEY: 'sk' } });
    expect(off.embedder).toBeUndefined();
    expect(off.reason).toMatch(/disabled/);
    expect(await planEmbedder(settings({ provider: 'none' }), { modelsDir: dir })).toEqual([]);
  });

  it('createEmbedderForSettings returns the embedder or null and reports fallbacks', async () => {
    const dir = await modelsDir();
    const warnings: string[] = [];
    const e = await createEmbedderForSettings(settings({ provider: 'openai', fallback: 'static' }), { modelsDir: dir, env: {}, warn: (m) => warnings.push(m) });
    expect(e?.provider).toBe('static');
    expect(warnings).toEqual([expect.stringMatching(/fallback for openai/)]);
    expect(await createEmbedderForSettings(settings({ provider: 'none' }), { modelsDir: dir, env: {}, warn: (m) => warnings.push(m) })).toBeNull();
    expect(warnings).toHaveLength(1);
  });
});

describe('retired model files', () => {
  it("choosing an embedder deletes the GloVe table (and a killed conversion's temp file) older versions left in the models dir, nothing else", async () => {
    const dir = await modelsDir();
    const keep = ['my-model.gguf', 'static-glove-100d.bin.notes.txt'];
    for (const f of ['static-glove-100d.bin', '.static-glove-100d.bin.123.ab12cd34.tmp', ...keep]) fs.writeFileSync(path.join(dir, f), 'x');
    const choice = await createEmbedder(settings(), { modelsDir: dir, env: {} });
    expect(choice.embedder?.id).toBe('static:potion-base-8M-int8');
    expect(fs.readdirSync(dir).sort()).toEqual(keep.sort());
    await choice.embedder?.dispose();
  });
});
