/**
 * The compact binary format of the static embedder's model (the shipped
 * `resources/models/potion-base-8M.int8.bin`, written by scripts/build-potion-model.ts):
 * one file, used in place through typed-array views — no parsing, no per-word objects.
 * Loading reads all but the vectors (`StaticModel.open`); rows are read as first used.
 *
 * Layout (little-endian; every section starts on a 4-byte boundary):
 *   header   32 bytes: magic "CAIRNSV1", u32 formatVersion, dims, count, tableSize,
 *            stringBytes, reserved
 *   scales   Float32[count]        per-word dequantisation scale (max |x| / 127)
 *   vectors  Int8[count × dims]    quantised vectors, row = frequency rank
 *   offsets  Uint32[count + 1]     word i is strings[offsets[i] .. offsets[i+1])
 *   strings  UTF-8 bytes of every word, concatenated
 *   table    Uint32[tableSize]     open-addressing hash table (FNV-1a, linear probe),
 *                                  entry = row + 1, 0 = empty; tableSize a power of two
 *
 * Int8 with a per-row scale keeps cosine similarity within ~1e-3 of Float32 at a quarter
 * of the size.
 */

import fs from 'node:fs';

export const STATIC_MAGIC = 'CAIRNSV1';
export const STATIC_FORMAT_VERSION = 1;
/** Size of the fixed header at the start of the file. */
const HEADER_BYTES = 32;

const align4 = (n: number): number => (n + 3) & ~3;

/** Read `into.length` bytes of `fd` at `pos`; a short read means the file changed under us. */
function readFully(fd: number, into: Uint8Array, pos: number, what: string): void {
  let done = 0;
  while (done < into.length) {
    const n = fs.readSync(fd, into, done, into.length - done, pos + done);
    if (n === 0) throw new Error(`${what}: truncated while reading (at byte ${pos + done})`);
    done += n;
  }
}

/** FNV-1a over bytes `[start, end)` of `bytes`. */
function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i] as number;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** What the model builder hands to `encodeStaticModel`. */
export interface StaticModelData {
  dims: number;
  /** Words in row order (most frequent first). */
  words: string[];
  /** Quantised rows, `words.length × dims`. */
  vectors: Int8Array;
  scales: Float32Array;
}

/** Byte offsets of each section (and the total file size) for the given header fields. */
function sectionLayout(dims: number, count: number, stringBytes: number, tableSize: number) {
  const scales = HEADER_BYTES;
  const vectors = scales + count * 4;
  const offsets = align4(vectors + count * dims);
  const strings = offsets + (count + 1) * 4;
  const table = align4(strings + stringBytes);
  const total = table + tableSize * 4;
  return { scales, vectors, offsets, strings, table, total };
}

/** Serialise a model to the binary layout above (yielding now and then on a big vocabulary). */
export async function encodeStaticModel(data: StaticModelData): Promise<Buffer> {
  const { dims, words } = data;
  const count = words.length;
  const encoded: Buffer[] = [];
  for (let i = 0; i < words.length; i++) {
    if (i % 20_000 === 19_999) await new Promise((r) => setImmediate(r));
    encoded.push(Buffer.from(words[i] as string, 'utf8'));
  }
  const stringBytes = encoded.reduce((n, b) => n + b.length, 0);
  let tableSize = 1;
  while (tableSize < count * 2) tableSize <<= 1; // load factor ≤ 0.5 keeps probes short
  const L = sectionLayout(dims, count, stringBytes, tableSize);
  const buf = Buffer.alloc(L.total);
  buf.write(STATIC_MAGIC, 0, 'latin1');
  buf.writeUInt32LE(STATIC_FORMAT_VERSION, 8);
  buf.writeUInt32LE(dims, 12);
  buf.writeUInt32LE(count, 16);
  buf.writeUInt32LE(tableSize, 20);
  buf.writeUInt32LE(stringBytes, 24);
  Buffer.from(data.scales.buffer, data.scales.byteOffset, count * 4).copy(buf, L.scales);
  Buffer.from(data.vectors.buffer, data.vectors.byteOffset, count * dims).copy(buf, L.vectors);
  const offsets = new Uint32Array(buf.buffer, buf.byteOffset + L.offsets, count + 1);
  const table = new Uint32Array(buf.buffer, buf.byteOffset + L.table, tableSize);
  let pos = 0;
  const mask = tableSize - 1;
  for (let i = 0; i < count; i++) {
    if (i % 20_000 === 19_999) await new Promise((r) => setImmediate(r));
    const b = encoded[i] as Buffer;
    offsets[i] = pos;
    b.copy(buf, L.strings + pos);
    let slot = fnv1a(b, 0, b.length) & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = i + 1;
    pos += b.length;
  }
  offsets[count] = pos;
  return buf;
}

/** The header fields and section offsets of a model file. */
interface StaticHeader {
  dims: number;
  count: number;
  tableSize: number;
  stringBytes: number;
  layout: ReturnType<typeof sectionLayout>;
}

/**
 * Check the 32-byte header `head` against the file's `size`; throws a clear error naming
 * `what` for a foreign, outdated, truncated or corrupt file.
 */
function parseHeader(head: Buffer, size: number, what: string): StaticHeader {
  if (head.length < HEADER_BYTES || head.toString('latin1', 0, 8) !== STATIC_MAGIC) {
    throw new Error(`${what}: not a Cairn static word-vector file (bad magic)`);
  }
  const version = head.readUInt32LE(8);
  if (version !== STATIC_FORMAT_VERSION) throw new Error(`${what}: format version ${version}, expected ${STATIC_FORMAT_VERSION}`);
  const dims = head.readUInt32LE(12);
  const count = head.readUInt32LE(16);
  const tableSize = head.readUInt32LE(20);
  const stringBytes = head.readUInt32LE(24);
  const layout = sectionLayout(dims, count, stringBytes, tableSize);
  if (size !== layout.total) throw new Error(`${what}: truncated or corrupt (size ${size}, expected ${layout.total})`);
  // A lookup probes the table until an empty slot: it needs more slots than words.
  if (dims === 0 || tableSize <= count || (tableSize & (tableSize - 1)) !== 0) {
    throw new Error(`${what}: corrupt header (dims ${dims}, ${count} words, hash table of ${tableSize} slots)`);
  }
  return { dims, count, tableSize, stringBytes, layout };
}

/**
 * Check the word offsets and the hash table, so that no lookup can read outside the file or
 * probe a table without an empty slot for ever: ~100k entries on every load. A valid model is
 * checked by native loops — its offsets equal their sorted copy (non-decreasing) and end
 * within the strings, its largest table entry names a row, and an entry is 0 — ~1 ms, where
 * the loops over each entry in JavaScript (run once, so never optimised) took ~3 ms of a
 * one-shot `cairn search`. Only a model that fails is walked, to name the first bad entry.
 */
function checkSections(h: StaticHeader, offsets: Uint32Array, table: Uint32Array, what: string): void {
  const { count, stringBytes } = h;
  if (offsets[0] !== 0) throw new Error(`${what}: corrupt word offsets (word 0)`);
  const sorted = offsets.slice().sort();
  const bytes = (a: Uint32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  if (!bytes(sorted).equals(bytes(offsets)) || (offsets[count] as number) > stringBytes) {
    let prev = 0;
    for (let i = 0; i <= count; i++) {
      const off = offsets[i] as number;
      if (off < prev || off > stringBytes) throw new Error(`${what}: corrupt word offsets (word ${i})`);
      prev = off;
    }
  }
  let max = 0;
  // Math.max over slices as its arguments (apply: no iterator), in pieces well below the argument limit.
  for (let i = 0; i < table.length; i += 16_384) max = Math.max(max, Math.max.apply(null, table.subarray(i, i + 16_384) as unknown as number[]));
  if (max > count) {
    const slot = table.findIndex((entry) => entry > count);
    throw new Error(`${what}: corrupt hash table (slot ${slot} names row ${(table[slot] as number) - 1} of ${count})`);
  }
  if (table.indexOf(0) === -1) throw new Error(`${what}: corrupt hash table (no empty slot)`);
}

/**
 * Vectors not read yet (`StaticModel.open`): rows are read from the open file as they are
 * first used, until so many were needed (an indexing run) that the whole section is read.
 */
interface PendingRows {
  fd: number;
  /** File offset of the vectors section. */
  at: number;
  /** 1 for each row already read. */
  read: Uint8Array;
  misses: number;
}

/** A model's sections as typed views (the whole file's, or what `StaticModel.open` read). */
interface OpenedSections {
  h: StaticHeader;
  scales: Float32Array;
  vectors: Int8Array;
  offsets: Uint32Array;
  strings: Uint8Array;
  table: Uint32Array;
  pending: PendingRows | null;
}

/** Rows read one by one before the whole vectors section is read instead. */
const ROWS_BEFORE_WHOLE = 64;
/** Closes the file of a model collected before it read all its rows. */
const openFiles = new FinalizationRegistry<number>((fd) => fs.close(fd, () => undefined));

/** A loaded model: typed-array views over its sections, plus word lookup. */
export class StaticModel {
  readonly dims: number;
  readonly count: number;
  private readonly scales: Float32Array;
  private readonly vectors: Int8Array;
  private readonly offsets: Uint32Array;
  private readonly strings: Uint8Array;
  private readonly table: Uint32Array;
  private readonly mask: number;
  private scratch = new Uint8Array(256);
  private readonly encoder = new TextEncoder();
  private pending: PendingRows | null = null;

  /** The model in `input`: a whole file read into memory, or the sections `open` read. */
  constructor(input: Buffer | OpenedSections, what = 'static model') {
    if (Buffer.isBuffer(input)) {
      // Typed views need 4-byte aligned offsets; a pooled small Buffer might not be.
      const buf = input.byteOffset % 4 === 0 ? input : Buffer.from(input);
      const h = parseHeader(buf, buf.length, what);
      const { count, dims, stringBytes, tableSize, layout: L } = h;
      const ab = buf.buffer;
      const o = buf.byteOffset;
      input = {
        h,
        scales: new Float32Array(ab, o + L.scales, count),
        vectors: new Int8Array(ab, o + L.vectors, count * dims),
        offsets: new Uint32Array(ab, o + L.offsets, count + 1),
        strings: new Uint8Array(ab, o + L.strings, stringBytes),
        table: new Uint32Array(ab, o + L.table, tableSize),
        pending: null,
      };
    }
    const { h } = input;
    this.dims = h.dims;
    this.count = h.count;
    this.scales = input.scales;
    this.vectors = input.vectors;
    this.offsets = input.offsets;
    this.strings = input.strings;
    this.table = input.table;
    this.mask = h.tableSize - 1;
    checkSections(h, this.offsets, this.table, what);
    this.pending = input.pending;
  }

  /**
   * The model in `file`, reading all but its vectors (0.7 of 8 MB for potion): rows are read
   * as they are first used. A one-shot `cairn search` embeds one query, a handful of rows,
   * and read the whole file before. The file stays open until every row needed is in memory.
   */
  static open(file: string, what = file): StaticModel {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const head = Buffer.alloc(Math.min(size, HEADER_BYTES));
      readFully(fd, head, 0, what);
      const h = parseHeader(head, size, what);
      const L = h.layout;
      // Two reads: the scales, then offsets + strings + table (contiguous, to the end).
      const scales = Buffer.alloc(h.count * 4);
      readFully(fd, scales, L.scales, what);
      const rest = Buffer.alloc(L.total - L.offsets);
      readFully(fd, rest, L.offsets, what);
      const model = new StaticModel(
        {
          h,
          scales: new Float32Array(scales.buffer, scales.byteOffset, h.count),
          // Zero-filled and written row by row: pages never touched are never committed.
          vectors: new Int8Array(h.count * h.dims),
          offsets: new Uint32Array(rest.buffer, rest.byteOffset, h.count + 1),
          strings: new Uint8Array(rest.buffer, rest.byteOffset + L.strings - L.offsets, h.stringBytes),
          table: new Uint32Array(rest.buffer, rest.byteOffset + L.table - L.offsets, h.tableSize),
          pending: { fd, at: L.vectors, read: new Uint8Array(h.count), misses: 0 },
        },
        what,
      );
      openFiles.register(model, fd, model);
      return model;
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
  }

  /** Make sure `row`'s vector is in memory (a model from `open`). */
  private need(row: number): void {
    const p = this.pending as PendingRows;
    if (p.read[row] === 1) return;
    const bytes = new Uint8Array(this.vectors.buffer, this.vectors.byteOffset, this.vectors.length);
    if (++p.misses <= ROWS_BEFORE_WHOLE) {
      readFully(p.fd, bytes.subarray(row * this.dims, (row + 1) * this.dims), p.at + row * this.dims, 'static model');
      p.read[row] = 1;
      return;
    }
    readFully(p.fd, bytes, p.at, 'static model');
    this.pending = null;
    openFiles.unregister(this);
    fs.closeSync(p.fd);
  }

  /** Row of `word` (its frequency rank), or -1 when it is not in the vocabulary. */
  lookup(word: string): number {
    if (this.scratch.length < word.length * 3) this.scratch = new Uint8Array(word.length * 3);
    const n = this.encoder.encodeInto(word, this.scratch).written;
    const key = this.scratch;
    let slot = fnv1a(key, 0, n) & this.mask;
    for (;;) {
      const entry = this.table[slot] as number;
      if (entry === 0) return -1;
      const row = entry - 1;
      const s = this.offsets[row] as number;
      const e = this.offsets[row + 1] as number;
      if (e - s === n) {
        let same = true;
        for (let i = 0; i < n; i++) {
          if (this.strings[s + i] !== key[i]) {
            same = false;
            break;
          }
        }
        if (same) return row;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  /** The word at `row` (for tests and debugging). */
  word(row: number): string {
    const s = this.offsets[row] as number;
    const e = this.offsets[row + 1] as number;
    return Buffer.from(this.strings.buffer, this.strings.byteOffset + s, e - s).toString('utf8');
  }

  /** `out += weight × vector(row)` (dequantised). */
  addTo(out: Float32Array, row: number, weight = 1): void {
    if (this.pending) this.need(row);
    const d = this.dims;
    const vectors = this.vectors;
    const base = row * d;
    const k = (this.scales[row] as number) * weight;
    for (let i = 0; i < d; i++) out[i] = (out[i] as number) + (vectors[base + i] as number) * k;
  }

  /** Dequantised vector of `row` (a copy). */
  vector(row: number): Float32Array {
    const v = new Float32Array(this.dims);
    this.addTo(v, row);
    return v;
  }
}
