/**
 * A structural check of a GGUF file before llama.cpp loads it: magic, version, every
 * metadata entry and tensor record read with each declared length and count bounded by the
 * bytes left in the file, and every tensor's data inside the file. llama.cpp's own loader
 * answers a truncated or corrupt file with "Failed to load model" (or a JS error from
 * node-llama-cpp's metadata reader, e.g. `The value of "size" is out of range`); this check
 * says which file and what is wrong, in time and memory bounded by the file's size.
 * Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 */
import fs from 'node:fs';

/** Bytes read per window: metadata is parsed from a sliding window, never the whole file. */
const WINDOW = 1 << 20;
/** GGUF value types → fixed size in bytes (8 = string, 9 = array: variable). */
const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
/** ggml tensor types whose byte size is checked: [elements per block, bytes per block]. */
const GGML_BLOCKS: Record<number, [number, number]> = {
  0: [1, 4], 1: [1, 2], 2: [32, 18], 3: [32, 20], 6: [32, 22], 7: [32, 24], 8: [32, 34],
  10: [256, 84], 11: [256, 110], 12: [256, 144], 13: [256, 176], 14: [256, 210], 15: [256, 292], 30: [1, 2],
};
const MAX_DIMS = 4;

/** Positioned little-endian reads through a window, refusing any read past the end. */
class Cursor {
  pos = 0;
  private buf = Buffer.alloc(0);
  private start = 0;

  constructor(private readonly fd: number, readonly size: number) {}

  get left(): number {
    return this.size - this.pos;
  }

  private take(n: number, what: string): Buffer {
    if (n > this.left) throw new Error(`${what} at byte ${this.pos} needs ${n} bytes, the file has ${this.left} left (truncated?)`);
    if (this.pos < this.start || this.pos + n > this.start + this.buf.length) {
      this.start = this.pos;
      this.buf = Buffer.alloc(Math.min(Math.max(n, WINDOW), this.left));
      if (fs.readSync(this.fd, this.buf, 0, this.buf.length, this.pos) !== this.buf.length) throw new Error(`short read at byte ${this.pos}`);
    }
    const out = this.buf.subarray(this.pos - this.start, this.pos - this.start + n);
    this.pos += n;
    return out;
  }

  u32(what: string): number {
    return this.take(4, what).readUInt32LE(0);
  }

  u64(what: string): number {
    const v = this.take(8, what).readBigUInt64LE(0);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`${what} at byte ${this.pos - 8} is ${v}, more than any file holds`);
    return Number(v);
  }

  skip(n: number, what: string): void {
    if (n > this.left) throw new Error(`${what} at byte ${this.pos} needs ${n} bytes, the file has ${this.left} left (truncated?)`);
    this.pos += n;
  }

  str(what: string): string {
    const n = this.u64(`${what} length`);
    return this.take(n, what).toString('utf8');
  }

  /** A count of items of at least `minBytes` each, refused when they cannot fit. */
  count(what: string, minBytes: number): number {
    const n = this.u64(what);
    if (n * minBytes > this.left) throw new Error(`${what} ${n} at byte ${this.pos - 8} cannot fit in the ${this.left} bytes left`);
    return n;
  }
}

function skipValue(c: Cursor, type: number, key: string, depth = 0): number | string | undefined {
  const fixed = SCALAR_BYTES[type];
  if (fixed !== undefined) {
    if (type === 4) return c.u32(key);
    c.skip(fixed, key);
    return undefined;
  }
  if (type === 8) return c.str(key);
  if (type !== 9 || depth > 0) throw new Error(`metadata ${key}: value type ${type} is not a GGUF type`);
  const inner = c.u32(`${key} element type`);
  const n = c.count(`${key} element count`, SCALAR_BYTES[inner] ?? 8);
  if (SCALAR_BYTES[inner] !== undefined) c.skip(n * (SCALAR_BYTES[inner] as number), key);
  else for (let i = 0; i < n; i++) skipValue(c, inner, key, depth + 1);
  return undefined;
}

/** Read one tensor record; returns its data offset and byte size (null when the type's size is not known here). */
function tensorRecord(c: Cursor, i: number): { name: string; offset: number; bytes: number | null } {
  const name = c.str(`tensor ${i} name`);
  const nDims = c.u32(`tensor ${name} dimension count`);
  if (nDims < 1 || nDims > MAX_DIMS) throw new Error(`tensor ${name}: ${nDims} dimensions (1 to ${MAX_DIMS} allowed)`);
  let elements = 1;
  for (let d = 0; d < nDims; d++) elements *= c.u64(`tensor ${name} dimension ${d}`);
  const type = c.u32(`tensor ${name} type`);
  const offset = c.u64(`tensor ${name} offset`);
  const block = GGML_BLOCKS[type];
  if (block && elements % block[0] !== 0) throw new Error(`tensor ${name}: ${elements} elements is not a whole number of type ${type} blocks`);
  return { name, offset, bytes: block ? (elements / block[0]) * block[1] : null };
}

/**
 * Check that `file` is a complete, well-formed GGUF file; throws an Error naming the file
 * and the first thing wrong. Reads only the metadata and tensor records (a sliding window).
 */
export function checkGgufFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    const c = new Cursor(fd, fs.fstatSync(fd).size);
    const magic = c.u32('magic');
    if (magic !== 0x46554747) throw new Error('not a GGUF file (no "GGUF" magic at the start)');
    const version = c.u32('version');
    if (version < 2 || version > 3) throw new Error(`GGUF version ${version} is not supported (2 or 3)`);
    const tensors = c.count('tensor count', 8 + 4 + 8 + 4 + 8);
    const kvs = c.count('metadata entry count', 8 + 4 + 1);
    let alignment = 32;
    for (let i = 0; i < kvs; i++) {
      const key = c.str(`metadata entry ${i} key`);
      const v = skipValue(c, c.u32(`metadata ${key} type`), key);
      if (key === 'general.alignment') {
        if (typeof v !== 'number' || v === 0 || (v & (v - 1)) !== 0) throw new Error(`general.alignment ${String(v)} is not a power of two`);
        alignment = v;
      }
    }
    const records = Array.from({ length: tensors }, (_, i) => tensorRecord(c, i));
    const dataStart = Math.ceil(c.pos / alignment) * alignment;
    const dataBytes = c.size - dataStart;
    for (const r of records) {
      if (r.offset % alignment !== 0) throw new Error(`tensor ${r.name}: data offset ${r.offset} is not aligned to ${alignment}`);
      if (r.offset + (r.bytes ?? 0) > dataBytes) throw new Error(`tensor ${r.name}: data runs past the end of the file (truncated download?)`);
    }
  } catch (err) {
    throw new Error(`${file}: not a usable GGUF model: ${(err as Error).message}`);
  } finally {
    fs.closeSync(fd);
  }
}
