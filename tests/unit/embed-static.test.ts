import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertWinkEmbeddings } from '../../electron/engine/embed/static-convert';
import { StaticModel } from '../../electron/engine/embed/static-format';
import { createStaticEmbedder, staticModelPath, StaticEmbedder } from '../../electron/engine/embed/static';
import { wordTokens } from '../../electron/engine/embed/tokenize';
import { isStopWord } from '../../shared/text/stop-words';
import { dot } from '../../electron/engine/embed/vector';
import { sharedStaticModelsDir } from '../../testkit/static-model';
import { tmpDir } from '../helpers/tmp';

/** A miniature file in the wink package's format: [x1..xd, l2norm, index] per word. */
function winkFixture(dir: string): string {
  const vectors: Record<string, number[]> = {
    the: [1, 0, 0, 0.5, 0],
    ',': [0, 1, 0, 0, 1],
    cat: [0.5, 0.25, -1, 0, 1],
    kitten: [0.5, 0.3, -0.9, 0, 1],
    'e-mail': [-1e-2, 2.5e1, 0, 0, 0],
    '"q"': [0, 0, 1, 0, 0],
    café: [0, 0, 0, -2, 0],
  };
  const words = Object.keys(vectors);
  const obj = {
    precision: 8,
    l2NormIndex: 5,
    wordIndex: 6,
    size: words.length,
    dimensions: 5,
    words,
    vectors: Object.fromEntries(words.map((w, i) => [w, [...(vectors[w] as number[]), 1, i]])),
    unkVector: [0, 0, 0, 0, 0, -1],
  };
  const file = path.join(dir, 'wink.json');
  fs.writeFileSync(file, JSON.stringify(obj));
  return file;
}

describe('static model conversion', () => {
  it('converts the wink JSON format into the binary, keeping word vectors and dropping punctuation', async () => {
    const dir = tmpDir();
    const res = await convertWinkEmbeddings(path.join(dir, 'models'), { source: winkFixture(dir) });
    expect(res).toMatchObject({ dims: 5, words: 5 }); // ',' and '"q"' dropped
    expect(res.bytes).toBe(fs.statSync(res.file).size);
    const m = new StaticModel(fs.readFileSync(res.file));
    expect(m.lookup(',')).toBe(-1);
    expect(m.lookup('"q"')).toBe(-1);
    expect(m.lookup('nope')).toBe(-1);
    expect(m.word(m.lookup('café'))).toBe('café');
    const cat = m.vector(m.lookup('cat'));
    [0.5, 0.25, -1, 0, 1].forEach((x, i) => expect(cat[i]).toBeCloseTo(x, 2));
    const mail = m.vector(m.lookup('e-mail'));
    expect(mail[0]).toBeCloseTo(0, 1); // Int8 quantisation per row: 25/127 resolution
    expect(mail[1]).toBeCloseTo(25, 5);
  });

  it('rejects a corrupt or truncated model file with a clear error', async () => {
    expect(() => new StaticModel(Buffer.from('not a model at all, definitely not'))).toThrow(/not a Cairn static word-vector file/);
    const dir = tmpDir();
    const res = await convertWinkEmbeddings(dir, { source: winkFixture(dir) });
    const buf = fs.readFileSync(res.file);
    expect(() => new StaticModel(buf.subarray(0, buf.length - 8), 'm.bin')).toThrow(/m.bin: truncated or corrupt/);
  });

  it('honours an aborted signal', async () => {
    const dir = tmpDir();
    const ac = new AbortController();
    ac.abort();
    await expect(convertWinkEmbeddings(dir, { source: winkFixture(dir), signal: ac.signal })).rejects.toThrow(/abort/i);
    expect(fs.existsSync(staticModelPath(dir))).toBe(false);
  });
});

describe('createStaticEmbedder', () => {
  it('converts on first use, then rebuilds a damaged or outdated model file instead of failing', async () => {
    const dir = tmpDir();
    const source = winkFixture(dir);
    const models = path.join(dir, 'models');
    const e = await createStaticEmbedder({ modelsDir: models, source, weighting: 'mean' });
    expect(e.dims).toBe(5);
    const [cat] = await e.embed(['cat']);
    fs.writeFileSync(staticModelPath(models), 'CAIRNSV0 from an older version');
    const again = await createStaticEmbedder({ modelsDir: models, source, weighting: 'mean' });
    expect(Array.from((await again.embed(['cat']))[0]!)).toEqual(Array.from(cat!));
    expect(fs.readFileSync(staticModelPath(models)).subarray(0, 8).toString('latin1')).toBe('CAIRNSV1');
  });
});

describe('tokenizer', () => {
  it('lowercases, keeps Unicode words and inner joiners, and knows stop words', () => {
    expect(wordTokens('The Café’s e-mail, naïve U.S. résumé 42!')).toEqual(['the', "café's", 'e-mail', 'naïve', 'u.s', 'résumé', '42']);
    expect(wordTokens("rock-'n'-roll -dash- end. 'quoted' o’neill")).toEqual(['rock', 'n', 'roll', 'dash', 'end', 'quoted', "o'neill"]);
    // Astral letters (surrogate pairs) stay whole; emoji are not words; CJK runs are one token.
    expect(wordTokens('𝒳yz 😀 naïve𝒳 日本語テキスト 中文')).toEqual(['𝒳yz', 'naïve𝒳', '日本語テキスト', '中文']);
    expect(wordTokens('')).toEqual([]);
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('not')).toBe(false);
  });
});

describe('static embedder (real GloVe vectors)', () => {
  // The first run of a fresh checkout converts the 307 MB package once (seconds, more under load).
  beforeAll(() => sharedStaticModelsDir(), 180_000);

  it('embeds to L2-normalised 100-d vectors, deterministically, with an id for the index', async () => {
    const e = await createStaticEmbedder({ modelsDir: await sharedStaticModelsDir() });
    expect(e.dims).toBe(100);
    expect(e.id).toBe(`static:${e.model}`);
    const [a, b] = await e.embed(['We decided to use PostgreSQL for the database', 'We decided to use PostgreSQL for the database']);
    expect(a).toHaveLength(100);
    expect(dot(a!, a!)).toBeCloseTo(1, 5);
    expect(Buffer.from(a!.buffer).equals(Buffer.from(b!.buffer))).toBe(true);
  });

  it('puts related texts closer than unrelated ones', async () => {
    const e = await createStaticEmbedder({ modelsDir: await sharedStaticModelsDir() });
    const [q, near, far] = await e.embed(['dental appointment next tuesday', 'meeting with the dentist on tuesday', 'rewrite the parser in rust']);
    expect(dot(q!, near!)).toBeGreaterThan(dot(q!, far!) + 0.2);
  });

  it('gives a zero vector (never NaN) for empty, stop-word-only or unknown text', async () => {
    const e = await createStaticEmbedder({ modelsDir: await sharedStaticModelsDir() });
    for (const v of await e.embed(['', 'the of and it', 'zzqxv qqqzzy', '日本語'])) {
      expect(v).toHaveLength(100);
      expect(Array.from(v).every((x) => x === 0)).toBe(true);
    }
  });

  it('skips unknown words and falls back to the parts of an unknown joined word', async () => {
    const e = await createStaticEmbedder({ modelsDir: await sharedStaticModelsDir() });
    const [withJunk, clean, joined, parts] = await e.embed(['coffee zzqxvq espresso', 'coffee espresso', 'coffee-espresso', 'coffee espresso']);
    expect(Array.from(withJunk!)).toEqual(Array.from(clean!));
    expect(Array.from(joined!)).toEqual(Array.from(parts!));
  });

  it('reports progress and stops when aborted', async () => {
    const e = await createStaticEmbedder({ modelsDir: await sharedStaticModelsDir() });
    const seen: [number, number][] = [];
    await e.embed(['one', 'two', 'three'], { onProgress: (d, t) => seen.push([d, t]) });
    expect(seen.at(-1)).toEqual([3, 3]);
    const ac = new AbortController();
    ac.abort();
    await expect(e.embed(['one'], { signal: ac.signal })).rejects.toThrow(/abort/i);
  });

  it('plain mean weighting is available and is a different model id', async () => {
    const dir = await sharedStaticModelsDir();
    const mean = await createStaticEmbedder({ modelsDir: dir, weighting: 'mean' });
    expect(mean).toBeInstanceOf(StaticEmbedder);
    expect(mean.model).toBe('glove-100d-int8');
    expect((await createStaticEmbedder({ modelsDir: dir })).model).toBe('glove-100d-int8-sif');
  });
});
