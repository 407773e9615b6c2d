/**
 * The shipped static embedder (potion-base-8M): BERT WordPiece tokens as model2vec makes
 * them, the mean of their rows, L2-normalised; found where Cairn ships it, shared by the
 * engine's indexes through its STATIC_MODELS member and released by engine.dispose(); the
 * same vectors from the embed worker.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createPotionEmbedder, POTION_MODEL_FILE, shippedPotionModel } from '../../electron/engine/embed/potion';
import { StaticModelCache } from '../../electron/engine/embed/model-cache';
import { startEmbedWorker } from '../../electron/engine/embed/embed-worker';
import { bertWords } from '../../electron/engine/embed/wordpiece';
import { StaticModel } from '../../electron/engine/embed/static-format';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { memoryRegistry, STATIC_MODELS } from '../../electron/engine/index/registry';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture } from '../helpers/memory-fixture';
import { tmpDir, writeTree } from '../helpers/tmp';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);
const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');

describe('potion static embedder', () => {
  it('splits text the way BERT does: punctuation alone, accents folded, CJK one per character, ## pieces', async () => {
    expect(bertWords("Hello, World! It's e-mail.")).toEqual(['hello', ',', 'world', '!', 'it', "'", 's', 'e', '-', 'mail', '.']);
    expect(bertWords('Café naïve 東京タワー')).toEqual(['cafe', 'naive', '東', '京', 'タワー']);
    // A soft hyphen inside a word is dropped, not a word break.
    expect(bertWords('co\u00adoperate\tnow')).toEqual(['cooperate', 'now']);
    const emb = await createPotionEmbedder();
    const model = new StaticModel(fs.readFileSync(shippedPotionModel()));
    const pieces = (t: string) => emb.tokenRows(t).map((r) => model.word(r));
    expect(pieces('Tokenization 東京タワー')).toEqual(['token', '##ization', '東', '京', 'タ', '##ワ', '##ー']);
    // An unmatchable word is the unknown token, which model2vec leaves out.
    expect(pieces('deploy \u{1F680}')).toEqual(['deploy']);
  });

  it('embeds deterministically into normalised 256-d vectors that put paraphrases close', async () => {
    const emb = await createPotionEmbedder();
    expect(emb.id).toBe('static:potion-base-8M-int8');
    const [dog, puppy, revenue, empty] = await emb.embed(['the dog barked at the mailman', 'a puppy was barking at the postman', 'quarterly revenue grew ten percent', '']);
    expect(dog).toHaveLength(256);
    expect(Math.abs(dot(dog!, dog!) - 1)).toBeLessThan(1e-5);
    expect(dot(dog!, puppy!)).toBeGreaterThan(dot(dog!, revenue!) + 0.4);
    expect(empty!.every((x) => x === 0)).toBe(true);
    // Token order does not change a mean: same words, same bytes.
    expect(bytes(emb.embedOne('barked dog the'))).toBe(bytes(emb.embedOne('the dog barked')));
    expect(bytes((await (await createPotionEmbedder()).embed(['the dog barked at the mailman']))[0]!)).toBe(bytes(dog!));
  });

  it('ships the model in resources/models of the checkout', () => {
    const file = shippedPotionModel();
    expect(file.endsWith(`resources/models/${POTION_MODEL_FILE}`)).toBe(true);
    expect(fs.statSync(file).size).toBeLessThan(9_000_000);
  });

  it('the embed worker gives the in-process vectors', async () => {
    const emb = await createPotionEmbedder();
    const texts = ['Deployed commit a1b2c3d to production.', '', '发布计划 東京の会議', 'Kenji packaging '.repeat(300)];
    const worker = await startEmbedWorker({ kind: 'potion', file: shippedPotionModel() }, { id: emb.id, dims: emb.dims });
    try {
      expect((await worker.embed(texts)).map(bytes)).toEqual((await emb.embed(texts)).map(bytes));
    } finally {
      await worker.close();
    }
  });
});

describe('the static model on the engine', () => {
  const engines: Engine[] = [];
  afterEach(async () => {
    while (engines.length) await engines.pop()!.dispose();
  });

  it('one load serves every agent, the model dir stays empty, and dispose releases it', async () => {
    const stateDir = tmpDir('cairn-potion-');
    writeTree(stateDir, {
      'cairn/state.json': '{}',
      'cairn.json': JSON.stringify({ agents: { list: [{ id: 'main' }, { id: 'work', workspace: 'workspace-work' }] } }),
      'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode.\n',
      'workspace-work/MEMORY.md': '# Work\n\nThe standup moved to ten.\n',
    });
    const engine = createEngine({ stateDir, deps: { env: {} } });
    engines.push(engine);
    const reg = memoryRegistry(engine.ctx);
    await reg.sync('main');
    await reg.sync('work');
    const cache = engine.ctx.member(STATIC_MODELS);
    expect(cache).toBeInstanceOf(StaticModelCache);
    expect(cache.size).toBe(1);
    expect(cache.has(shippedPotionModel())).toBe(true);
    const hits = await engine.ctx.searchBackend().search('work', { query: 'when is the standup' });
    expect(JSON.stringify(hits)).toContain('standup');
    // Nothing converted or copied per state dir.
    const models = engine.ctx.paths('main').modelsDir;
    expect(fs.existsSync(models) ? fs.readdirSync(models) : []).toEqual([]);
    await engines.pop()!.dispose();
    expect(cache.size).toBe(0);
  });
});

describe('an index built with the GloVe vectors of earlier versions', () => {
  it('is rebuilt once with potion, then reused', async () => {
    const fx = memoryFixture({ 'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim keybindings.\n' });
    // The identity such an index recorded: provider static, model glove-100d-int8-sif, 100 d.
    const old = fx.open({ embedder: new FakeEmbedder({ provider: 'static', model: 'glove-100d-int8-sif', dims: 100 }) });
    await old.sync();
    await old.dispose();
    const idx = fx.open({ embedder: await createPotionEmbedder() });
    try {
      expect(idx.needsRebuild()).toBe(true);
      const first = await idx.sync();
      expect(first.full).toBe(true);
      expect(first.embedded).toBeGreaterThan(0);
      expect(idx.needsRebuild()).toBe(false);
      const again = await idx.sync();
      expect(again.full).toBeFalsy();
      expect(again.embedded).toBe(0);
    } finally {
      await idx.dispose();
    }
  });
});
