/**
 * The static word-vector model read on demand: the header once, then for each word only the
 * hash-table slots, offsets and string bytes its lookup probes, and for each row only its
 * scale and 100 bytes — positional reads of the file of static-format.ts.
 *
 * Why: `cairn search` embeds one query of a few words, and loading the whole 44 MB file for
 * that was a sixth of the command's wall time. Reading a query's words costs a few dozen
 * small reads instead. The bytes read are the bytes a loaded StaticModel views, and the
 * arithmetic is the same, so the vectors are identical. Big jobs (indexing) load the whole
 * model instead: static.ts switches once `reads` passes a budget.
 */
import fs from 'node:fs';
import { fnv1a, HEADER_BYTES, parseStaticHeader, type StaticHeader, type StaticVectors } from './static-format';

export class LazyStaticModel implements StaticVectors {
  readonly dims: number;
  readonly count: number;
  /** Positional reads so far (the embedder loads the whole model past a budget). */
  reads = 0;
  private fd: number | null;
  private readonly h: StaticHeader;
  private readonly mask: number;
  private scratch = new Uint8Array(256);
  private readonly encoder = new TextEncoder();
  private readonly u32 = Buffer.alloc(8);

  /** Open `file` and check its header and size; throws like StaticModel for a bad file. */
  constructor(
    readonly path: string,
    private readonly what = path,
  ) {
    const fd = fs.openSync(path, 'r');
    try {
      const head = Buffer.alloc(HEADER_BYTES);
      const n = fs.readSync(fd, head, 0, HEADER_BYTES, 0);
      this.h = parseStaticHeader(head.subarray(0, n), fs.fstatSync(fd).size, what);
    } catch (err) {
      fs.closeSync(fd);
      throw err;
    }
    this.fd = fd;
    this.dims = this.h.dims;
    this.count = this.h.count;
    this.mask = this.h.tableSize - 1;
  }

  /** Read exactly `len` bytes at `pos` into `into` (a file shortened since opening is corrupt). */
  private read(into: Uint8Array, len: number, pos: number): void {
    this.fd ??= fs.openSync(this.path, 'r');
    this.reads++;
    let got = 0;
    while (got < len) {
      const n = fs.readSync(this.fd, into, got, len - got, pos + got);
      if (n === 0) throw new Error(`${this.what}: truncated or corrupt (short read at byte ${pos + got})`);
      got += n;
    }
  }

  private uint32(pos: number): number {
    this.read(this.u32, 4, pos);
    return this.u32.readUInt32LE(0);
  }

  /** [start, end) of word `row` in the strings section. */
  private span(row: number): [number, number] {
    this.read(this.u32, 8, this.h.layout.offsets + row * 4);
    return [this.u32.readUInt32LE(0), this.u32.readUInt32LE(4)];
  }

  /** Row of `word` (its frequency rank), or -1 when it is not in the vocabulary. */
  lookup(word: string): number {
    if (this.scratch.length < word.length * 3) this.scratch = new Uint8Array(word.length * 3);
    const n = this.encoder.encodeInto(word, this.scratch).written;
    const key = this.scratch;
    const L = this.h.layout;
    let slot = fnv1a(key, 0, n) & this.mask;
    let bytes: Buffer | undefined;
    // An intact table has an empty slot (parseStaticHeader); a corrupt one is not probed for ever.
    for (let probes = 0; probes < this.h.tableSize; probes++) {
      const entry = this.uint32(L.table + slot * 4);
      if (entry === 0) return -1;
      const row = entry - 1;
      if (row >= this.count) throw new Error(`${this.what}: corrupt hash table (slot ${slot} names row ${row} of ${this.count})`);
      const [s, e] = this.span(row);
      if (e - s === n) {
        bytes ??= Buffer.alloc(n);
        this.read(bytes, n, L.strings + s);
        let same = true;
        for (let i = 0; i < n; i++) {
          if (bytes[i] !== key[i]) {
            same = false;
            break;
          }
        }
        if (same) return row;
      }
      slot = (slot + 1) & this.mask;
    }
    throw new Error(`${this.what}: corrupt hash table (no empty slot)`);
  }

  /** The word at `row`. */
  word(row: number): string {
    const [s, e] = this.span(row);
    const bytes = Buffer.alloc(e - s);
    this.read(bytes, e - s, this.h.layout.strings + s);
    return bytes.toString('utf8');
  }

  /** `out += weight × vector(row)` (dequantised), exactly as StaticModel.addTo. */
  addTo(out: Float32Array, row: number, weight = 1): void {
    const d = this.dims;
    const L = this.h.layout;
    const scale = new Float32Array(1);
    this.read(new Uint8Array(scale.buffer), 4, L.scales + row * 4);
    const bytes = new Int8Array(d);
    this.read(new Uint8Array(bytes.buffer), d, L.vectors + row * d);
    const k = (scale[0] as number) * weight;
    for (let i = 0; i < d; i++) out[i] = (out[i] as number) + (bytes[i] as number) * k;
  }

  /** Dequantised vector of `row` (a copy). */
  vector(row: number): Float32Array {
    const v = new Float32Array(this.dims);
    this.addTo(v, row);
    return v;
  }

  /** Close the file (a later read reopens it). */
  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }
}
