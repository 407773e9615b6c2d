/**
 * Every model-file reader (safetensors import, GGUF embedding models, the static model's
 * binary file) meets truncated, corrupt and hostile files with an Error that names the file
 * and what is wrong — never a hang, a huge allocation or a raw RangeError. Fuzzed: every
 * truncation point of a small real file, random bytes, random byte flips, and huge
 * declared lengths and counts. (A pickled pytorch_model.bin is not read at all:
 * embed-import.test.ts.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkGgufFile } from '../../electron/engine/embed/gguf-check';
import { importSentenceTransformers } from '../../electron/engine/embed/import/index';
import { SafetensorsFile } from '../../electron/engine/embed/import/safetensors';
import { encodeStaticModel, StaticModel } from '../../electron/engine/embed/static-format';
import { tmpDir } from '../helpers/tmp';

const TINY_ST = path.resolve('tests/fixtures/tiny-bert/safetensors/model.safetensors');

/** Deterministic pseudo-random bytes. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/** Why an error from opening `file` is not an acceptable refusal (null when it is). */
function badRefusal(file: string, err: unknown): string | null {
  if (!(err instanceof Error)) return `not an Error: ${String(err)}`;
  if (!err.message.startsWith(`${file}:`)) return `does not name the file: ${err.message}`;
  if (/out of range|Cannot read properties|undefined|NaN/.test(err.message)) return `raw error: ${err.message}`;
  return null;
}

/** Run `open` on `file` (already holding the bytes): it loads, or throws an Error naming the file. */
function tryOpen(file: string, open: (f: string) => void): 'ok' | 'refused' {
  try {
    open(file);
    return 'ok';
  } catch (err) {
    const bad = badRefusal(file, err);
    if (bad) throw new Error(bad);
    return 'refused';
  }
}

/** Write `bytes` to `file`, then `tryOpen` it. */
function outcome(file: string, bytes: Buffer, open: (f: string) => void): 'ok' | 'refused' {
  fs.writeFileSync(file, bytes);
  return tryOpen(file, open);
}

/** Every cut of `bytes` shorter than the whole, shortened in place (one file): the cuts that were not refused. */
function truncations(file: string, bytes: Buffer, open: (f: string) => void): number[] {
  fs.writeFileSync(file, bytes);
  const accepted: number[] = [];
  for (let cut = bytes.length - 1; cut >= 0; cut--) {
    fs.truncateSync(file, cut);
    if (tryOpen(file, open) === 'ok') accepted.push(cut);
  }
  return accepted;
}

/** Open a safetensors file and read every tensor, as the importer does. */
function readAllSafetensors(file: string): void {
  const st = new SafetensorsFile(file);
  try {
    for (const name of st.tensors.keys()) st.readF32(name);
  } finally {
    st.close();
  }
}

/** A safetensors file with the given header (data: `dataBytes` zero bytes). */
function safetensors(header: unknown, dataBytes: number, declaredLength?: bigint): Buffer {
  const head = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(declaredLength ?? BigInt(head.length));
  return Buffer.concat([len, head, Buffer.alloc(dataBytes)]);
}

describe('safetensors reader', () => {
  const real = fs.readFileSync(TINY_ST);

  it('refuses every truncation of a real file, naming the file', () => {
    const file = path.join(tmpDir(), 'model.safetensors');
    expect(outcome(file, real, readAllSafetensors)).toBe('ok');
    expect(truncations(file, real, readAllSafetensors)).toEqual([]);
  });

  it('refuses random bytes and survives random byte flips', () => {
    const file = path.join(tmpDir(), 'model.safetensors');
    const r = rng(7);
    for (let i = 0; i < 200; i++) {
      const junk = Buffer.from(Array.from({ length: Math.floor(r() * 2000) }, () => Math.floor(r() * 256)));
      expect(outcome(file, junk, readAllSafetensors)).toBe('refused');
      const flipped = Buffer.from(real);
      for (let k = 0; k < 4; k++) flipped[Math.floor(r() * flipped.length)] = Math.floor(r() * 256);
      outcome(file, flipped, readAllSafetensors);
    }
  });

  it('refuses huge and inverted declared lengths with what is wrong', () => {
    const file = path.join(tmpDir(), 'model.safetensors');
    const cases: [Buffer, RegExp][] = [
      [safetensors({ w: { dtype: 'F32', shape: [2], data_offsets: [0, 8] } }, 8, 2n ** 63n), /header length .* does not fit/],
      [safetensors({ w: { dtype: 'F32', shape: [80], data_offsets: [320, 0] } }, 320), /data_offsets \[320,0\] are not a byte range/],
      [safetensors({ w: { dtype: 'F32', shape: [2], data_offsets: [0, 2 ** 50] } }, 8), /data runs past the end/],
      [safetensors({ w: { dtype: 'F32', shape: [1e15, 1e15], data_offsets: [0, 8] } }, 8), /holds 8 bytes, shape .* needs/],
      [safetensors({ w: { dtype: 'F32', shape: [-2], data_offsets: [0, 8] } }, 8), /shape \[-2\] is not a list of whole numbers/],
      [safetensors({ w: { dtype: 'F32', shape: [2], data_offsets: [0.5, 8] } }, 8), /not a byte range/],
      [safetensors([1, 2], 0), /not a JSON object/],
    ];
    for (const [bytes, why] of cases) {
      expect(outcome(file, bytes, readAllSafetensors)).toBe('refused');
      expect(() => readAllSafetensors(file)).toThrow(why);
    }
  });
});

describe('GGUF model check', () => {
  let real: Buffer;
  beforeAll(async () => {
    const dir = tmpDir();
    const r = await importSentenceTransformers(path.dirname(TINY_ST), { outFile: path.join(dir, 'tiny.gguf'), name: 'tiny-bert' });
    real = fs.readFileSync(r.outFile);
  });

  it('accepts the real file and refuses every truncation of it', () => {
    const file = path.join(tmpDir(), 'model.gguf');
    expect(outcome(file, real, checkGgufFile)).toBe('ok');
    expect(truncations(file, real, checkGgufFile)).toEqual([]);
  });

  it('refuses random bytes and survives random byte flips', () => {
    const file = path.join(tmpDir(), 'model.gguf');
    const r = rng(11);
    for (let i = 0; i < 200; i++) {
      const junk = Buffer.from(Array.from({ length: Math.floor(r() * 2000) }, () => Math.floor(r() * 256)));
      if (i % 2) junk.write('GGUF\x03\x00\x00\x00', 0, 'latin1');
      expect(outcome(file, junk, checkGgufFile)).toBe('refused');
      const flipped = Buffer.from(real);
      for (let k = 0; k < 4; k++) flipped[Math.floor(r() * flipped.length)] = Math.floor(r() * 256);
      outcome(file, flipped, checkGgufFile);
    }
  });

  it('refuses huge declared counts and lengths with what is wrong', () => {
    const file = path.join(tmpDir(), 'model.gguf');
    const at = (pos: number, v: bigint) => {
      const b = Buffer.from(real);
      b.writeBigUInt64LE(v, pos);
      return b;
    };
    const cases: [Buffer, RegExp][] = [
      [at(8, 2n ** 48n), /tensor count 281474976710656 at byte 8 cannot fit/],
      [at(16, 2n ** 48n), /metadata entry count 281474976710656 at byte 16 cannot fit/],
      [at(24, 2n ** 62n), /metadata entry 0 key length at byte 24 is 4611686018427387904, more than any file holds/],
      [at(24, 2n ** 40n), /metadata entry 0 key at byte 32 needs 1099511627776 bytes/],
    ];
    for (const [bytes, why] of cases) {
      expect(outcome(file, bytes, checkGgufFile)).toBe('refused');
      expect(() => checkGgufFile(file)).toThrow(why);
    }
  });
});

describe('static model binary file', () => {
  let real: Buffer;
  const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
  beforeAll(async () => {
    const r = rng(3);
    real = await encodeStaticModel({
      dims: 4,
      words,
      vectors: Int8Array.from({ length: words.length * 4 }, () => Math.floor(r() * 255) - 127),
      scales: Float32Array.from(words, () => 0.01),
    });
  });
  /** Load, and look up a few words (a corrupt table must not loop). */
  const load = (file: string) => {
    const whole = new StaticModel(fs.readFileSync(file), file);
    for (const w of ['word0', 'word59', 'absent', 'zzz']) whole.lookup(w);
  };

  it('loads the real file and refuses every truncation of it', () => {
    const file = path.join(tmpDir(), 'static.bin');
    expect(outcome(file, real, load)).toBe('ok');
    expect(new StaticModel(real).lookup('word59')).toBe(59);
    expect(truncations(file, real, load)).toEqual([]);
  });

  it('refuses a corrupt header or hash table, and survives random byte flips', () => {
    const file = path.join(tmpDir(), 'static.bin');
    const patch = (pos: number, v: number) => {
      const b = Buffer.from(real);
      b.writeUInt32LE(v, pos);
      return b;
    };
    const tableSize = real.readUInt32LE(20);
    const tableAt = real.length - tableSize * 4;
    const full = Buffer.from(real);
    for (let i = 0; i < tableSize; i++) full.writeUInt32LE(1, tableAt + i * 4);
    for (const [bytes, why] of [
      [patch(20, 0), /truncated or corrupt|corrupt header/],
      [full, /corrupt hash table \(no empty slot\)/],
      [patch(tableAt, 9999), /corrupt hash table/],
      [patch(32 + words.length * 4 + words.length * 4, 0xffffffff), /corrupt word offsets/],
    ] as [Buffer, RegExp][]) {
      expect(outcome(file, bytes, load)).toBe('refused');
      expect(() => load(file)).toThrow(why);
    }
    const r = rng(5);
    for (let i = 0; i < 200; i++) {
      const flipped = Buffer.from(real);
      for (let k = 0; k < 3; k++) flipped[Math.floor(r() * flipped.length)] = Math.floor(r() * 256);
      outcome(file, flipped, load);
    }
  });
});
