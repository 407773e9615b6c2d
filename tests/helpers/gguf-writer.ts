/**
 * A small GGUF (v3) writer, enough to build test models from scratch: typed metadata
 * (scalars, strings, arrays) and F32 tensors. Layout per ggml's docs/gguf.md: header
 * ("GGUF", version, tensor count, kv count), key/values, tensor infos, padding to
 * `general.alignment` (32), then tensor data, each tensor aligned.
 */

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
export const i32 = (value: number): GgufValue => ({ type: GGUF_TYPE.INT32, value });
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

const ALIGNMENT = 32;
const GGML_TYPE_F32 = 0;

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

/** Serialise metadata and F32 tensors into one GGUF v3 file image. */
export function writeGguf(metadata: Record<string, GgufValue>, tensors: GgufTensor[]): Buffer {
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
    const n = t.dims.reduce((a, b) => a * b, 1);
    if (n !== t.data.length) throw new Error(`gguf: tensor ${t.name} has ${t.data.length} values, dims ${t.dims.join('×')} need ${n}`);
    head.string(t.name);
    head.u32(t.dims.length);
    for (const d of t.dims) head.u64(d);
    head.u32(GGML_TYPE_F32);
    head.u64(offset);
    offsets.push(offset);
    offset += Math.ceil((n * 4) / ALIGNMENT) * ALIGNMENT;
  }
  head.pad();
  const data = Buffer.alloc(offset);
  tensors.forEach((t, i) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).copy(data, offsets[i]));
  return Buffer.concat([head.concat(), data]);
}
