/**
 * The static model read on demand (static-lazy.ts) against the model loaded whole: the same
 * words, rows and vectors, byte for byte, whether the embedder stays lazy (a search query)
 * or switches to the whole file on a big job.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createStaticEmbedder, staticModelPath } from '../../electron/engine/embed/static';
import { StaticModel } from '../../electron/engine/embed/static-format';
import { LazyStaticModel } from '../../electron/engine/embed/static-lazy';
import { sharedStaticModelsDir } from '../../testkit/static-model';
import { tmpDir } from '../helpers/tmp';

const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');

const TEXTS = [
  'deploy staging',
  'ECONNREFUSED on the router firmware update',
  'We decided to use PostgreSQL for the database; state-of-the-art café résumé',
  '日本語 zzqxv the of and',
  '',
];

describe('static model read on demand', () => {
  beforeAll(() => sharedStaticModelsDir(), 180_000);

  it('finds the same rows and words and dequantises the same vectors as the loaded model', async () => {
    const file = staticModelPath(await sharedStaticModelsDir());
    const whole = new StaticModel(fs.readFileSync(file), file);
    const lazy = new LazyStaticModel(file);
    try {
      expect([lazy.dims, lazy.count]).toEqual([whole.dims, whole.count]);
      for (const w of ['the', 'router', 'firmware', 'café', 'e-mail', 'zzqxvq', '日本語', 'x'.repeat(300)]) {
        const row = whole.lookup(w);
        expect(lazy.lookup(w)).toBe(row);
        if (row >= 0) {
          expect(lazy.word(row)).toBe(w);
          expect(bytes(lazy.vector(row))).toBe(bytes(whole.vector(row)));
        }
      }
      for (const row of [0, 1, 1234, whole.count - 1]) expect(lazy.word(row)).toBe(whole.word(row));
    } finally {
      lazy.close();
    }
  });

  it('embeds a query to the same bytes as the loaded model, without loading the file', async () => {
    const modelsDir = await sharedStaticModelsDir();
    for (const weighting of ['sif', 'mean'] as const) {
      const full = await createStaticEmbedder({ modelsDir, weighting, load: 'full' });
      const expected = (await full.embed(TEXTS)).map(bytes);
      for (const [i, t] of TEXTS.entries()) {
        const lazy = await createStaticEmbedder({ modelsDir, weighting, load: 'lazy' });
        expect(lazy.loading).toBe('lazy');
        const [v] = await lazy.embed([t], { kind: 'query' });
        expect(bytes(v!)).toBe(expected[i]);
        expect(bytes(lazy.embedOne(t))).toBe(expected[i]);
        expect(lazy.loading).toBe('lazy');
        await lazy.dispose();
      }
    }
  });

  it('switches to the whole file for a big batch or many words, with the same vectors', async () => {
    const modelsDir = await sharedStaticModelsDir();
    const full = await createStaticEmbedder({ modelsDir, load: 'full' });
    const many = Array.from({ length: 20 }, (_, i) => `${TEXTS[i % TEXTS.length]} note ${i}`);
    const lazy = await createStaticEmbedder({ modelsDir, load: 'lazy' });
    expect((await lazy.embed(many)).map(bytes)).toEqual((await full.embed(many)).map(bytes));
    expect(lazy.loading).toBe('full');

    // Through embedOne alone (as the embed worker calls it): words read one by one until
    // the read budget, then the whole file.
    const file = staticModelPath(modelsDir);
    const model = new StaticModel(fs.readFileSync(file));
    const words = Array.from({ length: 1500 }, (_, i) => model.word(i + 200)).join(' ');
    const direct = await createStaticEmbedder({ modelsDir, load: 'lazy' });
    expect(bytes(direct.embedOne(words))).toBe(bytes(full.embedOne(words)));
    expect(bytes(direct.embedOne('deploy staging'))).toBe(bytes(full.embedOne('deploy staging')));
    expect(direct.loading).toBe('full');
  });

  it('rejects a foreign or truncated file with the same errors as the loaded model', async () => {
    const dir = tmpDir();
    const bad = path.join(dir, 'bad.bin');
    fs.writeFileSync(bad, 'CAIRNSV0 from an older version');
    expect(() => new LazyStaticModel(bad, 'm.bin')).toThrow(/m.bin: not a Cairn static word-vector file/);
    const good = fs.readFileSync(staticModelPath(await sharedStaticModelsDir()));
    const cut = path.join(dir, 'cut.bin');
    fs.writeFileSync(cut, good.subarray(0, good.length - 8));
    expect(() => new LazyStaticModel(cut, 'm.bin')).toThrow(/m.bin: truncated or corrupt/);
  });
});
