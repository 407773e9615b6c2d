/**
 * A reader for Hugging Face `.safetensors` files (the format sentence-transformers saves
 * by default): an 8-byte little-endian header length, a JSON header naming each tensor's
 * dtype, shape and byte range, then the raw data. Tensors are read one at a time with
 * positioned reads, so a large model is never whole in memory; F16 and BF16 are widened to
 * F32 (what the GGUF writer takes).
 */
import fs from 'node:fs';

/** One tensor's entry in the header. */
export interface SafetensorsEntry {
  dtype: string;
  shape: number[];
  /** [begin, end) byte offsets relative to the start of the data section. */
  data_offsets: [number, number];
}

const HEADER_LIMIT = 100 * 1024 * 1024; // the format's own cap on the JSON header
const DTYPE_WIDTH: Record<string, number | undefined> = { F32: 4, F16: 2, BF16: 2 };

const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/**
 * One header entry, checked: a dtype, a shape of whole numbers, and a byte range
 * `0 <= begin <= end <= dataBytes` (so no read ever goes past the file or asks for a
 * negative or huge buffer).
 */
function checkEntry(name: string, v: unknown, dataBytes: number): SafetensorsEntry {
  const e = v as Partial<SafetensorsEntry> | null;
  if (!e || typeof e !== 'object' || typeof e.dtype !== 'string' || !Array.isArray(e.shape) || !Array.isArray(e.data_offsets)) {
    throw new Error(`tensor ${name}: malformed header entry`);
  }
  if (!e.shape.every(isCount)) throw new Error(`tensor ${name}: shape ${JSON.stringify(e.shape)} is not a list of whole numbers`);
  const [begin, end] = e.data_offsets;
  if (e.data_offsets.length !== 2 || !isCount(begin) || !isCount(end) || begin > end) {
    throw new Error(`tensor ${name}: data_offsets ${JSON.stringify(e.data_offsets)} are not a byte range [begin, end]`);
  }
  if (end > dataBytes) throw new Error(`tensor ${name}: data runs past the end of the file (truncated download?)`);
  return { dtype: e.dtype, shape: e.shape, data_offsets: [begin, end] };
}

/** An open .safetensors file; `close()` when done. */
export class SafetensorsFile {
  readonly tensors: Map<string, SafetensorsEntry>;
  private readonly fd: number;
  private readonly dataStart: number;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(this.fd).size;
      const lenBuf = Buffer.alloc(8);
      if (fs.readSync(this.fd, lenBuf, 0, 8, 0) !== 8) throw new Error('shorter than its 8-byte header length');
      const len = Number(lenBuf.readBigUInt64LE());
      if (len <= 0 || len > HEADER_LIMIT || 8 + len > size) throw new Error(`header length ${len} does not fit the file (${size} bytes)`);
      const head = Buffer.alloc(len);
      if (fs.readSync(this.fd, head, 0, len, 8) !== len) throw new Error('the header is cut short');
      let json: unknown;
      try {
        json = JSON.parse(head.toString('utf8'));
      } catch (err) {
        throw new Error(`the header is not JSON (${(err as Error).message})`);
      }
      if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('the header is not a JSON object');
      this.dataStart = 8 + len;
      this.tensors = new Map();
      for (const [name, v] of Object.entries(json)) {
        if (name === '__metadata__') continue;
        this.tensors.set(name, checkEntry(name, v, size - this.dataStart));
      }
    } catch (err) {
      fs.closeSync(this.fd);
      throw new Error(`${file}: not a readable safetensors file: ${(err as Error).message}`);
    }
  }

  /** A tensor's values as F32 (row-major, as PyTorch stores them). */
  readF32(name: string): Float32Array {
    const e = this.tensors.get(name);
    if (!e) throw new Error(`${this.file}: no tensor named ${name}`);
    const [begin, end] = e.data_offsets;
    const n = e.shape.reduce((a, b) => a * b, 1);
    const width = DTYPE_WIDTH[e.dtype];
    if (!width) throw new Error(`${this.file}: tensor ${name} has dtype ${e.dtype}; only F32, F16 and BF16 weights can be imported`);
    // Checked before anything is allocated: the byte range is already bounded by the file.
    if (end - begin !== n * width) throw new Error(`${this.file}: tensor ${name} holds ${end - begin} bytes, shape ${e.shape.join('×')} × ${e.dtype} needs ${n * width}`);
    const buf = Buffer.alloc(end - begin);
    if (fs.readSync(this.fd, buf, 0, buf.length, this.dataStart + begin) !== buf.length) throw new Error(`${this.file}: tensor ${name}: the file ends inside its data`);
    const out = new Float32Array(n);
    if (e.dtype === 'F32') {
      for (let i = 0; i < n; i++) out[i] = buf.readFloatLE(i * 4);
    } else if (e.dtype === 'BF16') {
      const u = new Uint32Array(out.buffer);
      for (let i = 0; i < n; i++) u[i] = buf.readUInt16LE(i * 2) << 16;
    } else {
      for (let i = 0; i < n; i++) out[i] = halfToFloat(buf.readUInt16LE(i * 2));
    }
    return out;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** IEEE 754 binary16 → number. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}
