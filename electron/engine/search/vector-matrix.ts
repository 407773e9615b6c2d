/**
 * The chunk vectors of one index held in memory as candidate generator of a fast vector
 * side (knn-cache.ts keeps it in step with the file and re-scores the candidates exactly
 * from the float copies on disk). Each vector is one int8 row — `chunks_vec`'s own int8
 * vector (the unit vector scaled so its largest component is ±127, store.ts `int8Vec`), a
 * quarter of the float's size — with the inverse of its norm.
 *
 * A query scans every row with WebAssembly SIMD (knn-scan.wat: the int16 query against the
 * int8 rows, 16 multiply-adds per instruction pair) and returns the ids of the best
 * `oversampled(limit)` rows that pass the filter; the int8 cosine ranks the true top
 * `limit` inside them (bench/knn-matrix.ts: recall@40 1.0 at 100k and 1M × 384 d).
 */
import { unitVec } from '../index/store';
import { KNN_SCAN_WASM } from './knn-scan-wasm';

/** Rows that pass a candidate filter (candidates.ts `filterSpec`). */
export interface MatrixFilter {
  source: string | null;
  /** Inclusive YYYY-MM-DD. */
  since: string | null;
  /** Exclusive YYYY-MM-DD. */
  before: string | null;
}

/** The little of WebAssembly's API this file uses (the engine's types have no DOM library). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
/** The assembled knn-scan.wat's exports. */
export interface ScanExports {
  memory: WasmMemory;
  scan(q: number, rows: number, scales: number, out: number, n: number, blocks: number): void;
  scan_cos(q: number, rows: number, out: number, n: number, blocks: number): void;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let wasmModule: object | null = null;
function scanModule(): object {
  wasmModule ??= new wasm.Module(Buffer.from(KNN_SCAN_WASM, 'base64'));
  return wasmModule;
}

/** A new instance of the scan module, with its own memory. */
export function scanInstance(): ScanExports {
  return new wasm.Instance(scanModule()).exports as ScanExports;
}

/** Bytes of a WebAssembly memory page. */
export const WASM_PAGE = 65_536;

/**
 * `q` (a unit vector) as the scan's int16 query, written at `off` in `ex`'s memory: scaled
 * so that no i32 sum over `blocks` × 16 int8 components can overflow. False for a zero query.
 */
export function writeQuery(ex: ScanExports, off: number, q: Float32Array, blocks: number): boolean {
  let max = 0;
  for (let i = 0; i < q.length; i++) max = Math.max(max, Math.abs(q[i]!));
  if (max === 0) return false;
  const qs = Math.min(32_767, Math.floor((2 ** 31 - 1) / (blocks * 16 * 127))) / max;
  const q16 = new Int16Array(ex.memory.buffer, off, blocks * 16);
  q16.fill(0);
  for (let i = 0; i < q.length; i++) q16[i] = Math.round(q[i]! * qs);
  return true;
}


/** YYYY-MM-DD as a number that orders like the string (-1 for none). */
function dayNumber(day: string | null | undefined): number {
  if (!day || !/^\d{4}-\d{2}-\d{2}/.test(day)) return -1;
  return Number(day.slice(0, 4)) * 10_000 + Number(day.slice(5, 7)) * 100 + Number(day.slice(8, 10));
}

export class VectorMatrix {
  /** 16-component blocks per row (dims rounded up). */
  readonly blocks: number;
  private readonly rowBytes: number;
  private readonly ex: ScanExports;
  private cap = 0;
  private n = 0;
  private ids = new Float64Array(0);
  private src = new Uint8Array(0);
  private day = new Int32Array(0);
  private readonly slotOf = new Map<number, number>();
  private readonly sourceCode = new Map<string, number>();

  constructor(readonly dims: number) {
    this.blocks = Math.max(1, Math.ceil(dims / 16));
    this.rowBytes = this.blocks * 16;
    this.ex = scanInstance();
  }

  get size(): number {
    return this.n;
  }

  /** Bytes the copy holds: the WebAssembly memory (rows, scales, scores) and the per-row arrays. */
  get bytes(): number {
    return this.ex.memory.buffer.byteLength + this.ids.byteLength + this.src.byteLength + this.day.byteLength;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Every stored id (for a diff against the index). */
  allIds(): Float64Array {
    return this.ids.slice(0, this.n);
  }

  // Layout of the WebAssembly memory: query (blocks × 32 B), out (cap × 4), scales (cap ×
  // 4), hi rows (cap × rowBytes).
  private readonly qOff = 0;
  private outOff(): number {
    return this.blocks * 32;
  }
  private scalesOff(cap = this.cap): number {
    return this.outOff() + cap * 4;
  }
  private rowsOff(cap = this.cap): number {
    return this.scalesOff(cap) + cap * 4;
  }

  /** Make room for `rows` rows in all (a load that knows its count grows once). */
  reserve(rows: number): void {
    if (rows > this.cap) this.grow(rows);
  }

  private grow(atLeast = 0): void {
    const cap = Math.max(1024, this.cap * 2, atLeast);
    const need = this.rowsOff(cap) + cap * this.rowBytes;
    const mem = this.ex.memory;
    if (need > mem.buffer.byteLength) mem.grow(Math.ceil((need - mem.buffer.byteLength) / WASM_PAGE));
    const bytes = new Uint8Array(mem.buffer);
    // Move the old regions up to the new layout (rows first: they move the furthest).
    bytes.copyWithin(this.rowsOff(cap), this.rowsOff(), this.rowsOff() + this.n * this.rowBytes);
    bytes.copyWithin(this.scalesOff(cap), this.scalesOff(), this.scalesOff() + this.n * 4);
    const ids = new Float64Array(cap);
    ids.set(this.ids.subarray(0, this.n));
    this.ids = ids;
    const src = new Uint8Array(cap);
    src.set(this.src.subarray(0, this.n));
    this.src = src;
    const day = new Int32Array(cap);
    day.set(this.day.subarray(0, this.n));
    this.day = day;
    this.cap = cap;
  }

  private hiRows(): Int8Array {
    return new Int8Array(this.ex.memory.buffer, this.rowsOff(), this.cap * this.rowBytes);
  }
  private scales(): Float32Array {
    return new Float32Array(this.ex.memory.buffer, this.scalesOff(), this.cap);
  }

  /** Store (or replace) the int8 vector of `id` (`dims` components, any per-row scale). */
  upsert(id: number, row: Int8Array, source: string, day: string | null): void {
    if (row.length !== this.dims) throw new Error(`vector of ${row.length} dims in a ${this.dims}-dim index`);
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      if (this.n === this.cap) this.grow();
      slot = this.n++;
      this.slotOf.set(id, slot);
    }
    const hi = this.hiRows();
    const base = slot * this.rowBytes;
    hi.fill(0, base, base + this.rowBytes);
    hi.set(row, base);
    let norm = 0;
    for (let i = 0; i < row.length; i++) norm += row[i]! * row[i]!;
    // The scan's dot product × 1 / |row| is the cosine (× the query's own scale).
    this.scales()[slot] = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    this.ids[slot] = id;
    let code = this.sourceCode.get(source);
    if (code === undefined) this.sourceCode.set(source, (code = this.sourceCode.size));
    this.src[slot] = code;
    this.day[slot] = dayNumber(day);
  }

  /** Forget `id` (the last row moves into its slot). */
  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    const last = --this.n;
    if (slot === last) return;
    const rb = this.rowBytes;
    this.hiRows().copyWithin(slot * rb, last * rb, last * rb + rb);
    const scales = this.scales();
    scales[slot] = scales[last]!;
    const moved = this.ids[last]!;
    this.ids[slot] = moved;
    this.src[slot] = this.src[last]!;
    this.day[slot] = this.day[last]!;
    this.slotOf.set(moved, slot);
  }

  /** Ids of the `m` rows nearest to `query` by the int8 cosine that pass `filter`, nearest first. */
  candidates(query: Float32Array, m: number, filter: MatrixFilter): number[] {
    if (this.n === 0 || m <= 0) return [];
    if (query.length !== this.dims) throw new Error(`query of ${query.length} dims in a ${this.dims}-dim index`);
    if (!writeQuery(this.ex, this.qOff, unitVec(query), this.blocks)) return [];
    this.ex.scan(this.qOff, this.rowsOff(), this.scalesOff(), this.outOff(), this.n, this.blocks);
    const out = new Float32Array(this.ex.memory.buffer, this.outOff(), this.n);
    const pool = this.pool(out, m, filter);
    pool.sort((a, b) => out[b]! - out[a]! || this.ids[a]! - this.ids[b]!);
    return pool.slice(0, m).map((slot) => this.ids[slot]!);
  }

  /** Slots of the best `m` scan scores that pass the filter. */
  private pool(out: Float32Array, m: number, filter: MatrixFilter): number[] {
    const source = filter.source === null ? -1 : (this.sourceCode.get(filter.source) ?? -2);
    if (source === -2) return [];
    const since = filter.since === null ? null : dayNumber(filter.since);
    const before = filter.before === null ? null : dayNumber(filter.before);
    const dated = since !== null || before !== null;
    let keep: number[] = [];
    let floor = -Infinity;
    for (let r = 0; r < this.n; r++) {
      const s = out[r]!;
      if (s < floor) continue;
      if (source >= 0 && this.src[r] !== source) continue;
      if (dated) {
        const d = this.day[r]!;
        if (d < 0 || (since !== null && d < since) || (before !== null && d >= before)) continue;
      }
      keep.push(r);
      if (keep.length >= 2 * m) {
        keep.sort((a, b) => out[b]! - out[a]!);
        keep = keep.slice(0, m);
        floor = out[keep[m - 1]!]!;
      }
    }
    return keep;
  }
}
