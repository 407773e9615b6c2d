/**
 * A static model opened from its file (`StaticModel.open`: all but the vectors read up front,
 * each row read when first used, the whole section once many are needed) gives the very
 * vectors of the model read whole, and refuses the same broken files with the same errors.
 * A one-shot `cairn search` embeds one query with it instead of reading 8 MB.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeStaticModel, StaticModel } from '../../electron/engine/embed/static-format';
import { PotionEmbedder, shippedPotionModel } from '../../electron/engine/embed/potion';
import { StaticModelCache } from '../../electron/engine/embed/model-cache';
import { tmpDir } from '../helpers/tmp';

const hex = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');

describe('StaticModel.open', () => {
  it('gives the whole-file vectors: a query’s few rows, then every row of a long text', async () => {
    const file = shippedPotionModel();
    const whole = new PotionEmbedder(new StaticModel(fs.readFileSync(file)));
    const cache = new StaticModelCache();
    const opened = new PotionEmbedder(await cache.load(file));
    const query = 'router firmware update';
    expect(hex(opened.embedOne(query))).toBe(hex(whole.embedOne(query)));
    // Past the rows read one by one: the rest of the section is read at once.
    const long = Array.from({ length: 400 }, (_, i) => `word${i} deploy staging kayak budget ${i * 7}`).join(' ');
    expect(hex(opened.embedOne(long))).toBe(hex(whole.embedOne(long)));
    expect(hex(opened.embedOne(query))).toBe(hex(whole.embedOne(query)));
  });

  it('row by row and all at once agree for every row sampled', () => {
    const file = shippedPotionModel();
    const whole = new StaticModel(fs.readFileSync(file));
    const a = StaticModel.open(file);
    const b = StaticModel.open(file);
    for (let row = 0; row < whole.count; row += 97) {
      expect(hex(a.vector(row))).toBe(hex(whole.vector(row)));
      expect(a.word(row)).toBe(whole.word(row));
    }
    // b reads only its first rows one by one (the last row is the file's last bytes of vectors).
    for (const row of [whole.count - 1, 0, 1]) expect(hex(b.vector(row))).toBe(hex(whole.vector(row)));
  });

  it('refuses a truncated or corrupt file as the whole-file reader does', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    const real = await encodeStaticModel({
      dims: 4,
      words,
      vectors: Int8Array.from({ length: words.length * 4 }, (_, i) => (i % 200) - 100),
      scales: Float32Array.from(words, () => 0.01),
    });
    const file = path.join(tmpDir('cairn-static-open-'), 'static.bin');
    const patch = (pos: number, v: number) => {
      const b = Buffer.from(real);
      b.writeUInt32LE(v, pos);
      return b;
    };
    const tableSize = real.readUInt32LE(20);
    const tableAt = real.length - tableSize * 4;
    const full = Buffer.from(real);
    for (let i = 0; i < tableSize; i++) full.writeUInt32LE(1, tableAt + i * 4);
    const cases: [Buffer, RegExp][] = [
      [real.subarray(0, real.length - 3), /truncated or corrupt/],
      [Buffer.from('not a model at all, not at all'), /bad magic/],
      [patch(20, 0), /truncated or corrupt|corrupt header/],
      [full, /corrupt hash table \(no empty slot\)/],
      [patch(tableAt, 9999), /corrupt hash table/],
      [patch(32 + words.length * 4 + words.length * 4, 0xffffffff), /corrupt word offsets/],
      // In range but going back (word 5 would start inside word 0): named by the first bad word.
      [patch(32 + words.length * 4 + words.length * 4 + 5 * 4, 1), /corrupt word offsets \(word 5\)/],
      [patch(tableAt + 7 * 4, words.length + 1), /corrupt hash table \(slot 7 names row 40 of 40\)/],
    ];
    for (const [bytes, why] of cases) {
      fs.writeFileSync(file, bytes);
      expect(() => new StaticModel(fs.readFileSync(file), file)).toThrow(why);
      expect(() => StaticModel.open(file)).toThrow(why);
    }
    fs.writeFileSync(file, real);
    const opened = StaticModel.open(file);
    expect(opened.lookup('word39')).toBe(39);
    expect(hex(opened.vector(39))).toBe(hex(new StaticModel(real).vector(39)));
  });
});
