/**
 * A reader for PyTorch `pytorch_model.bin` state dicts (torch.save's zip format, the default
 * since torch 1.6): a zip holding `<archive>/data.pkl` (a pickle of the state dict) and one
 * raw storage file per tensor under `<archive>/data/`. The pickle is run by a tiny
 * unpickler that knows only what a state dict needs (dicts, tuples, strings, numbers, and
 * the two torch functions that rebuild tensors); any other global is refused, so a
 * malicious .bin cannot run code — unlike torch.load. Tensors are read one at a time and
 * widened to F32, like SafetensorsFile.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { halfToFloat } from './safetensors';

interface ZipEntry {
  method: number;
  compressedSize: number;
  headerOffset: number;
}

interface TensorRef {
  storageKey: string;
  dtype: 'F32' | 'F16' | 'BF16';
  offset: number;
  shape: number[];
  stride: number[];
}

const STORAGE_DTYPES: Record<string, TensorRef['dtype']> = { FloatStorage: 'F32', HalfStorage: 'F16', BFloat16Storage: 'BF16' };

/** A function object the unpickler allows (GLOBAL). */
class PyGlobal {
  constructor(readonly module: string, readonly name: string) {}
}
class Storage {
  constructor(readonly key: string, readonly dtype: string) {}
}
const MARK = Symbol('mark');

function readZipIndex(fd: number, size: number, file: string): Map<string, ZipEntry> {
  const tail = Buffer.alloc(Math.min(size, 65_557));
  fs.readSync(fd, tail, 0, tail.length, size - tail.length);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  if (eocd < 0) throw new Error(`${file}: not a zip file (PyTorch saves .bin as a zip since 1.6; older pickles are not supported)`);
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff) throw new Error(`${file}: zip64 archives (over 4 GB) are not supported`);
  const cd = Buffer.alloc(cdSize);
  fs.readSync(fd, cd, 0, cdSize, cdOffset);
  const entries = new Map<string, ZipEntry>();
  for (let p = 0, n = 0; n < count; n++) {
    if (cd.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: corrupt zip central directory`);
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    entries.set(cd.toString('utf8', p + 46, p + 46 + nameLen), { method: cd.readUInt16LE(p + 10), compressedSize: cd.readUInt32LE(p + 20), headerOffset: cd.readUInt32LE(p + 42) });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

function readEntry(fd: number, e: ZipEntry, name: string): Buffer {
  const lh = Buffer.alloc(30);
  fs.readSync(fd, lh, 0, 30, e.headerOffset);
  if (lh.readUInt32LE(0) !== 0x04034b50) throw new Error(`zip entry ${name}: bad local header`);
  const data = Buffer.alloc(e.compressedSize);
  fs.readSync(fd, data, 0, data.length, e.headerOffset + 30 + lh.readUInt16LE(26) + lh.readUInt16LE(28));
  if (e.method === 0) return data;
  if (e.method === 8) return zlib.inflateRawSync(data);
  throw new Error(`zip entry ${name}: compression method ${e.method} is not supported`);
}

/** Run a state-dict pickle; returns name → tensor reference. */
function unpickle(buf: Buffer, file: string): Map<string, TensorRef> {
  const stack: unknown[] = [];
  const memo = new Map<number, unknown>();
  let p = 0;
  const popMark = (): unknown[] => {
    const i = stack.lastIndexOf(MARK);
    if (i < 0) throw new Error('MARK missing');
    const items = stack.splice(i);
    items.shift();
    return items;
  };
  const line = (): string => {
    const end = buf.indexOf(0x0a, p);
    const s = buf.toString('utf8', p, end);
    p = end + 1;
    return s;
  };
  const str = (len: number): string => {
    const s = buf.toString('utf8', p, p + len);
    p += len;
    return s;
  };
  const reduce = (fn: unknown, args: unknown[]): unknown => {
    if (!(fn instanceof PyGlobal)) throw new Error('REDUCE on a non-callable');
    const id = `${fn.module}.${fn.name}`;
    if (id === 'collections.OrderedDict') return new Map();
    if (id === 'torch._utils._rebuild_tensor_v2' || id === 'torch._utils._rebuild_tensor') {
      const [storage, offset, shape, stride] = args as [Storage, number, number[], number[]];
      const dtype = STORAGE_DTYPES[storage.dtype];
      if (!dtype) throw new Error(`storage type ${storage.dtype} is not supported (only float32, float16, bfloat16 weights)`);
      return { storageKey: storage.key, dtype, offset, shape: [...shape], stride: [...stride] } satisfies TensorRef;
    }
    if (id === 'torch._utils._rebuild_parameter') return args[0];
    throw new Error(`refusing to call ${id} (not part of a plain state dict)`);
  };
  try {
    for (;;) {
      const op = buf[p++];
      switch (op) {
        case 0x80: p++; break; // PROTO
        case 0x95: p += 8; break; // FRAME
        case 0x7d: stack.push(new Map()); break; // EMPTY_DICT }
        case 0x5d: stack.push([]); break; // EMPTY_LIST ]
        case 0x29: stack.push([]); break; // EMPTY_TUPLE )
        case 0x28: stack.push(MARK); break; // MARK (
        case 0x58: { const n = buf.readUInt32LE(p); p += 4; stack.push(str(n)); break; } // BINUNICODE X
        case 0x8c: { const n = buf[p++] as number; stack.push(str(n)); break; } // SHORT_BINUNICODE
        case 0x55: { const n = buf[p++] as number; stack.push(str(n)); break; } // SHORT_BINSTRING U
        case 0x54: { const n = buf.readUInt32LE(p); p += 4; stack.push(str(n)); break; } // BINSTRING T
        case 0x63: { const mod = line(); stack.push(new PyGlobal(mod, line())); break; } // GLOBAL c
        case 0x93: { const name = stack.pop() as string; stack.push(new PyGlobal(stack.pop() as string, name)); break; } // STACK_GLOBAL
        case 0x51: { // BINPERSID Q: ('storage', storage_type, key, location, numel)
          const t = stack.pop() as unknown[];
          const type = t[1] as PyGlobal;
          stack.push(new Storage(String(t[2]), type.name));
          break;
        }
        case 0x4b: stack.push(buf[p++]); break; // BININT1 K
        case 0x4d: stack.push(buf.readUInt16LE(p)); p += 2; break; // BININT2 M
        case 0x4a: stack.push(buf.readInt32LE(p)); p += 4; break; // BININT J
        case 0x8a: { // LONG1
          const n = buf[p++] as number;
          let v = 0n;
          for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(buf[p + i] as number);
          if (n && (buf[p + n - 1] as number) & 0x80) v -= 1n << BigInt(8 * n);
          p += n;
          stack.push(Number(v));
          break;
        }
        case 0x47: stack.push(buf.readDoubleBE(p)); p += 8; break; // BINFLOAT G
        case 0x74: stack.push(popMark()); break; // TUPLE t
        case 0x85: stack.push([stack.pop()]); break; // TUPLE1
        case 0x86: { const b = stack.pop(); stack.push([stack.pop(), b]); break; } // TUPLE2
        case 0x87: { const c = stack.pop(); const b = stack.pop(); stack.push([stack.pop(), b, c]); break; } // TUPLE3
        case 0x52: { const args = stack.pop() as unknown[]; stack.push(reduce(stack.pop(), args)); break; } // REDUCE R
        case 0x75: { // SETITEMS u
          const items = popMark();
          const d = stack.at(-1) as Map<unknown, unknown>;
          for (let i = 0; i < items.length; i += 2) d.set(items[i], items[i + 1]);
          break;
        }
        case 0x73: { const v = stack.pop(); const k = stack.pop(); (stack.at(-1) as Map<unknown, unknown>).set(k, v); break; } // SETITEM s
        case 0x61: { const v = stack.pop(); (stack.at(-1) as unknown[]).push(v); break; } // APPEND a
        case 0x65: { const items = popMark(); (stack.at(-1) as unknown[]).push(...items); break; } // APPENDS e
        case 0x71: memo.set(buf[p++] as number, stack.at(-1)); break; // BINPUT q
        case 0x72: memo.set(buf.readUInt32LE(p), stack.at(-1)); p += 4; break; // LONG_BINPUT r
        case 0x94: memo.set(memo.size, stack.at(-1)); break; // MEMOIZE
        case 0x68: stack.push(memo.get(buf[p++] as number)); break; // BINGET h
        case 0x6a: stack.push(memo.get(buf.readUInt32LE(p))); p += 4; break; // LONG_BINGET j
        case 0x4e: stack.push(null); break; // NONE N
        case 0x88: stack.push(true); break; // NEWTRUE
        case 0x89: stack.push(false); break; // NEWFALSE
        case 0x62: stack.pop(); break; // BUILD b: state (e.g. the state dict's _metadata) is ignored
        case 0x2e: { // STOP .
          const d = stack.pop();
          if (!(d instanceof Map)) throw new Error('the pickle is not a state dict');
          const out = new Map<string, TensorRef>();
          for (const [k, v] of d) if (typeof k === 'string' && v && typeof v === 'object' && 'storageKey' in v) out.set(k, v as TensorRef);
          return out;
        }
        default:
          throw new Error(`pickle opcode 0x${(op ?? 0).toString(16)} at byte ${p - 1} is not supported`);
      }
    }
  } catch (err) {
    throw new Error(`${file}: cannot read the state dict: ${(err as Error).message}`);
  }
}

/** An open pytorch_model.bin; same reading interface as SafetensorsFile. */
export class TorchBinFile {
  readonly tensors: Map<string, { dtype: string; shape: number[] }>;
  private readonly refs: Map<string, TensorRef>;
  private readonly entries: Map<string, ZipEntry>;
  private readonly prefix: string;
  private readonly fd: number;

  constructor(readonly file: string) {
    this.fd = fs.openSync(file, 'r');
    try {
      this.entries = readZipIndex(this.fd, fs.fstatSync(this.fd).size, file);
      const pkl = [...this.entries.keys()].find((n) => n.endsWith('/data.pkl'));
      if (!pkl) throw new Error(`${file}: no data.pkl inside: not a torch.save file`);
      this.prefix = pkl.slice(0, -'data.pkl'.length);
      this.refs = unpickle(readEntry(this.fd, this.entries.get(pkl) as ZipEntry, pkl), file);
      this.tensors = new Map([...this.refs].map(([k, r]) => [k, { dtype: r.dtype, shape: r.shape }]));
    } catch (err) {
      fs.closeSync(this.fd);
      throw err;
    }
  }

  /** A tensor's values as F32, row-major (contiguous tensors only, as state dicts hold). */
  readF32(name: string): Float32Array {
    const r = this.refs.get(name);
    if (!r) throw new Error(`${this.file}: no tensor named ${name}`);
    const key = `${this.prefix}data/${r.storageKey}`;
    const entry = this.entries.get(key);
    if (!entry) throw new Error(`${this.file}: storage ${key} of ${name} is missing`);
    let expect = 1;
    for (let i = r.shape.length - 1; i >= 0; i--) {
      if ((r.shape[i] as number) > 1 && r.stride[i] !== expect) throw new Error(`${this.file}: tensor ${name} is not contiguous`);
      expect *= r.shape[i] as number;
    }
    const width = r.dtype === 'F32' ? 4 : 2;
    const data = readEntry(this.fd, entry, key).subarray(r.offset * width, (r.offset + expect) * width);
    if (data.length !== expect * width) throw new Error(`${this.file}: storage of ${name} is shorter than its shape`);
    const out = new Float32Array(expect);
    if (r.dtype === 'F32') for (let i = 0; i < expect; i++) out[i] = data.readFloatLE(i * 4);
    else if (r.dtype === 'BF16') {
      const u = new Uint32Array(out.buffer);
      for (let i = 0; i < expect; i++) u[i] = data.readUInt16LE(i * 2) << 16;
    } else for (let i = 0; i < expect; i++) out[i] = halfToFloat(data.readUInt16LE(i * 2));
    return out;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
