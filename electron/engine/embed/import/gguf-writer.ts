/**
 * A small GGUF (v3) writer: typed metadata (scalars, strings, arrays) and F32/F16/Q8_0 tensors.
 * Used by `cairn models import` (streamed to a file, one tensor in memory at a time) and by
 * the test suite to build models from scratch (in memory). Layout per ggml's docs/gguf.md:
 * header ("GGUF", version, tensor count, kv count), key/values, tensor infos, padding to
 * `general.alignment` (32), then tensor data, each tensor aligned.
 */
import fs from 'node:fs';
import path from 'node:path';
import { toHalf } from '../../util/half';

/** GGUF value types (gguf.h `enum gguf_type`). */
export const GGUF_TYPE = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;

type ScalarType = Exclude<(typeof GGUF_TYPE)[keyof typeof GGUF_TYPE], 9>;

/** A metadata value: a typed scalar, a string, or a typed array. */
export type GgufValue =
  | { type: ScalarType; value: number | bigint | boolean | string }
  | { type: 9; itemType: ScalarType; values: (number | bigint | boolean | string)[] };

export const u32 = (value: number): GgufValue => ({ type: GGUF_TYPE.UINT32, value });
export const f32 = (value: number): GgufValue => ({ type: GGUF_TYPE.FLOAT32, value });
export const bool = (value: boolean): GgufValue => ({ type: GGUF_TYPE.BOOL, value });
export const str = (value: string): GgufValue => ({ type: GGUF_TYPE.STRING, value });
export const arr = (itemType: ScalarType, values: (number | string | boolean)[]): GgufValue => ({ type: GGUF_TYPE.ARRAY, itemType, values });

/** An F32 tensor; `dims` in ggml order (ne0 = innermost, contiguous). */
export interface GgufTensor {
  name: string;
  dims: number[];
  data: Float32Array;
}

/**
 * A tensor whose data is read only when written; stored as F32, F16 or Q8_0 (converted here;
 * Q8_0 needs rows of a multiple of 32 values).
 */
export interface LazyGgufTensor {
  name: string;
  /** ggml order (ne0 = innermost, contiguous). */
  dims: number[];
  type: TensorType;
  load: () => Float32Array;
}

const ALIGNMENT = 32;
export type TensorType = 'F32' | 'F16' | 'Q8_0';
const GGML_TYPE = { F32: 0, F16: 1, Q8_0: 8 } as const;
/** Values per block of Q8_0 (ggml's QK8_0), stored as an f16 scale and 32 int8. */
const QK8_0 = 32;

function dataBytes(type: TensorType, values: number): number {
  if (type === 'Q8_0') return (values / QK8_0) * (2 + QK8_0);
  return values * (type === 'F32' ? 4 : 2);
}
class ByteSink {
  private chunks: Buffer[] = [];
  length = 0;
  push(b: Buffer): void {
    this.chunks.push(b);
    this.length += b.length;
  }
  u32(n: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.push(b);
  }
  u64(n: number | bigint): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    this.push(b);
  }
  string(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.push(b);
  }
  pad(): void {
    const rem = this.length % ALIGNMENT;
    if (rem) this.push(Buffer.alloc(ALIGNMENT - rem));
  }
  scalar(type: ScalarType, v: number | bigint | boolean | string): void {
    const b8 = Buffer.alloc(8);
    switch (type) {
      case GGUF_TYPE.UINT8: b8.writeUInt8(Number(v)); return this.push(b8.subarray(0, 1));
      case GGUF_TYPE.INT8: b8.writeInt8(Number(v)); return this.push(b8.subarray(0, 1));
      case GGUF_TYPE.UINT16: b8.writeUInt16LE(Number(v)); return this.push(b8.subarray(0, 2));
      case GGUF_TYPE.INT16: b8.writeInt16LE(Number(v)); return this.push(b8.subarray(0, 2));
      case GGUF_TYPE.UINT32: b8.writeUInt32LE(Number(v)); return this.push(b8.subarray(0, 4));
      case GGUF_TYPE.INT32: b8.writeInt32LE(Number(v)); return this.push(b8.subarray(0, 4));
      case GGUF_TYPE.FLOAT32: b8.writeFloatLE(Number(v)); return this.push(b8.subarray(0, 4));
      case GGUF_TYPE.BOOL: b8.writeUInt8(v ? 1 : 0); return this.push(b8.subarray(0, 1));
      case GGUF_TYPE.STRING: return this.string(String(v));
      case GGUF_TYPE.UINT64: b8.writeBigUInt64LE(BigInt(v)); return this.push(b8);
      case GGUF_TYPE.INT64: b8.writeBigInt64LE(BigInt(v)); return this.push(b8);
      case GGUF_TYPE.FLOAT64: b8.writeDoubleLE(Number(v)); return this.push(b8);
    }
  }
  concat(): Buffer {
    return Buffer.concat(this.chunks, this.length);
  }
}

function elements(t: { name: string; dims: number[] }): number {
  return t.dims.reduce((a, b) => a * b, 1);
}

/** Header (metadata + tensor infos, padded) and each tensor's offset in the data section. */
function header(metadata: Record<string, GgufValue>, tensors: { name: string; dims: number[]; type: TensorType }[]): { head: Buffer; offsets: number[]; dataBytes: number } {
  const head = new ByteSink();
  head.push(Buffer.from('GGUF', 'latin1'));
  head.u32(3);
  head.u64(tensors.length);
  head.u64(Object.keys(metadata).length);
  for (const [key, v] of Object.entries(metadata)) {
    head.string(key);
    head.u32(v.type);
    if (v.type === GGUF_TYPE.ARRAY) {
      head.u32(v.itemType);
      head.u64(v.values.length);
      for (const x of v.values) head.scalar(v.itemType, x);
    } else {
      head.scalar(v.type, v.value);
    }
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    head.string(t.name);
    head.u32(t.dims.length);
    for (const d of t.dims) head.u64(d);
    head.u32(GGML_TYPE[t.type]);
    head.u64(offset);
    offsets.push(offset);
    if (t.type === 'Q8_0' && (t.dims[0] ?? 0) % QK8_0 !== 0) throw new Error(`gguf: tensor ${t.name} rows of ${t.dims[0]} values cannot be Q8_0 (blocks of ${QK8_0})`);
    offset += Math.ceil(dataBytes(t.type, elements(t)) / ALIGNMENT) * ALIGNMENT;
  }
  head.pad();
  return { head: head.concat(), offsets, dataBytes: offset };
}

function checkLength(name: string, dims: number[], data: Float32Array): void {
  const n = elements({ name, dims });
  if (n !== data.length) throw new Error(`gguf: tensor ${name} has ${data.length} values, dims ${dims.join('×')} need ${n}`);
}

/** IEEE 754 binary16 bits of a float (util/half.ts; also what the tests import from here). */
export { toHalf };

/** ggml's quantize_row_q8_0_ref: per block of 32, d = max|x| / 127 (as f16) and round(x / d). */
function encodeQ8_0(data: Float32Array): Buffer {
  const out = Buffer.alloc(dataBytes('Q8_0', data.length));
  for (let b = 0; b * QK8_0 < data.length; b++) {
    const at = b * QK8_0;
    let amax = 0;
    for (let j = 0; j < QK8_0; j++) amax = Math.max(amax, Math.abs(data[at + j] as number));
    const d = amax / 127;
    const id = d ? 1 / d : 0;
    const o = b * (2 + QK8_0);
    out.writeUInt16LE(toHalf(d), o);
    for (let j = 0; j < QK8_0; j++) out.writeInt8(Math.round((data[at + j] as number) * id), o + 2 + j);
  }
  return out;
}

function encode(type: TensorType, data: Float32Array): Buffer {
  if (type === 'F32') return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (type === 'Q8_0') return encodeQ8_0(data);
  const out = Buffer.alloc(data.length * 2);
  for (let i = 0; i < data.length; i++) out.writeUInt16LE(toHalf(data[i] as number), i * 2);
  return out;
}

/**
 * Serialise metadata and F32 tensors into one GGUF v3 file image (in memory; for small
 * models): the tests' tiny GGUF models are written with it, the importer streams instead.
 * @internal
 */
export function writeGguf(metadata: Record<string, GgufValue>, tensors: GgufTensor[]): Buffer {
  for (const t of tensors) checkLength(t.name, t.dims, t.data);
  const { head, offsets, dataBytes } = header(metadata, tensors.map((t) => ({ ...t, type: 'F32' as const })));
  const data = Buffer.alloc(dataBytes);
  tensors.forEach((t, i) => encode('F32', t.data).copy(data, offsets[i]));
  return Buffer.concat([head, data]);
}

/**
 * Write a GGUF file tensor by tensor (only one tensor's data in memory at a time), into a
 * temp file renamed over `file` once complete, so a reader never sees half a model.
 * `onTensor(done, total)` reports progress; an aborted `signal` stops between tensors and
 * removes the temp file.
 */
export function writeGgufFile(
  file: string,
  metadata: Record<string, GgufValue>,
  tensors: LazyGgufTensor[],
  opts: { onTensor?: (done: number, total: number) => void; signal?: AbortSignal } = {},
): { bytes: number } {
  const { head, offsets, dataBytes } = header(metadata, tensors);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.partial`;
  const fd = fs.openSync(tmp, 'w');
  let open = true;
  try {
    fs.writeSync(fd, head);
    tensors.forEach((t, i) => {
      if (opts.signal?.aborted) throw opts.signal.reason instanceof Error ? opts.signal.reason : new Error('cancelled');
      const data = t.load();
      checkLength(t.name, t.dims, data);
      const bytes = encode(t.type, data);
      fs.writeSync(fd, bytes, 0, bytes.length, head.length + (offsets[i] as number));
      opts.onTensor?.(i + 1, tensors.length);
    });
    // Pad the last tensor to the alignment, as the header's offsets promise.
    fs.ftruncateSync(fd, head.length + dataBytes);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    open = false;
    fs.renameSync(tmp, file);
  } catch (err) {
    if (open) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return { bytes: head.length + dataBytes };
}
