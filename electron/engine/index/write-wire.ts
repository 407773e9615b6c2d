/**
 * How vectors cross to and from the index's write worker (write-worker.ts): every distinct
 * Float32Array of a message is copied once into one buffer that is *transferred* (moved,
 * not cloned) with it, and named by its index. A batch's vectors are shared — a chunk's
 * vector sits in `byHash` and in the embedding cache's new entries, a line vector in several
 * chunks, and later batches borrow earlier ones — so the caller's arrays are never
 * detached; the one copy is the price of that, paid once instead of per reference.
 */
import type { PreparedChunk } from './prepare';
import type { PendingFile } from './sync-write';

/** Vectors packed back to back: vector i is `buf[at[i] .. at[i] + len[i]]`. */
export interface PackedVectors {
  buf: Float32Array;
  at: number[];
  len: number[];
}

/** Collects distinct vectors (by identity) and numbers them. */
export class VectorPacker {
  private readonly list: Float32Array[] = [];
  private readonly ids = new Map<Float32Array, number>();

  /** The number of `v` in this message. */
  id(v: Float32Array): number {
    let i = this.ids.get(v);
    if (i === undefined) {
      i = this.list.length;
      this.ids.set(v, i);
      this.list.push(v);
    }
    return i;
  }

  /** One buffer holding every vector numbered so far. */
  pack(): PackedVectors {
    return packAll(this.list);
  }
}

/** `list` copied back to back into one buffer. */
function packAll(list: readonly Float32Array[]): PackedVectors {
  const buf = new Float32Array(list.reduce((n, v) => n + v.length, 0));
  const at: number[] = [];
  const len: number[] = [];
  let o = 0;
  for (const v of list) {
    buf.set(v, o);
    at.push(o);
    len.push(v.length);
    o += v.length;
  }
  return { buf, at, len };
}

/** The vectors of a packed message, as views into its one buffer. */
export function unpackVectors(p: PackedVectors): Float32Array[] {
  return p.at.map((o, i) => p.buf.subarray(o, o + p.len[i]!));
}

/** A chunk on the wire: its line vectors as numbers into the message's packed vectors. */
type WireChunk = Omit<PreparedChunk, 'lineVectors'> & { lineIds?: number[] };

/** A batch of files to write, ready to post. */
export interface WireBatch {
  files: { file: PendingFile['file']; part?: PendingFile['part']; chunks: WireChunk[] }[];
  /** Body hash → vector number. */
  byHash: [string, number][];
  chunks: number;
  vectors: PackedVectors;
}

/** A batch (files with their vectors) as one message with one transferable buffer. */
export function encodeBatch(files: readonly PendingFile[], byHash: Map<string, Float32Array>, chunks: number): WireBatch {
  const packer = new VectorPacker();
  const hashes = new Map<string, number>();
  const wireFiles = files.map((p) => ({
    file: p.file,
    ...(p.part ? { part: p.part } : {}),
    chunks: p.chunks.map((c): WireChunk => {
      const v = byHash.get(c.bodyHash);
      if (v && !hashes.has(c.bodyHash)) hashes.set(c.bodyHash, packer.id(v));
      const { lineVectors, ...rest } = c;
      return lineVectors ? { ...rest, lineIds: lineVectors.map((l) => packer.id(l)) } : rest;
    }),
  }));
  return { files: wireFiles, byHash: [...hashes], chunks, vectors: packer.pack() };
}

/** The worker's side of `encodeBatch`. */
export function decodeBatch(w: WireBatch): { files: PendingFile[]; byHash: Map<string, Float32Array>; chunks: number } {
  const vs = unpackVectors(w.vectors);
  const files = w.files.map((f) => ({
    file: f.file,
    ...(f.part ? { part: f.part } : {}),
    chunks: f.chunks.map(({ lineIds, ...c }): PreparedChunk => (lineIds ? { ...c, lineVectors: lineIds.map((i) => vs[i]!) } : c)),
  }));
  return { files, byHash: new Map(w.byHash.map(([h, i]) => [h, vs[i]!])), chunks: w.chunks };
}

/** Hashes with their vectors (the embedding cache's entries), packed. */
export interface WireVectors {
  hashes: string[];
  vectors: PackedVectors;
}

/** Cache entries (or a cache lookup's answer) as one message with one transferable buffer. */
export function encodeVectors(entries: readonly (readonly [string, Float32Array])[]): WireVectors {
  return { hashes: entries.map(([h]) => h), vectors: packAll(entries.map(([, v]) => v)) };
}

/** The other side of `encodeVectors`. */
export function decodeVectors(w: WireVectors): Map<string, Float32Array> {
  const vs = unpackVectors(w.vectors);
  return new Map(w.hashes.map((h, i) => [h, vs[i]!]));
}
