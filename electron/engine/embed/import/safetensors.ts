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
      fs.readSync(this.fd, head, 0, len, 8);
      const json = JSON.parse(head.toString('utf8')) as Record<string, unknown>;
      this.dataStart = 8 + len;
      this.tensors = new Map();
      for (const [name, v] of Object.entries(json)) {
        if (name === '__metadata__') continue;
        const e = v as SafetensorsEntry;
        if (!e || typeof e.dtype !== 'string' || !Array.isArray(e.shape) || !Array.isArray(e.data_offsets)) throw new Error(`tensor ${name}: malformed header entry`);
        if (this.dataStart + e.data_offsets[1] > size) throw new Error(`tensor ${name}: data runs past the end of the file (truncated download?)`);
        this.tensors.set(name, e);
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
    const buf = Buffer.alloc(end - begin);
    fs.readSync(this.fd, buf, 0, buf.length, this.dataStart + begin);
    const width = { F32: 4, F16: 2, BF16: 2 }[e.dtype];
    if (!width) throw new Error(`${this.file}: tensor ${name} has dtype ${e.dtype}; only F32, F16 and BF16 weights can be imported`);
    if (buf.length !== n * width) throw new Error(`${this.file}: tensor ${name} holds ${buf.length} bytes, shape ${e.shape.join('×')} × ${e.dtype} needs ${n * width}`);
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
