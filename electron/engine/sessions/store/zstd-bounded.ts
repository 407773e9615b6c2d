/**
 * Inflating one zstd-compressed event of OpenClaw's store within a byte budget. A row is
 * foreign input: a 33 KB blob of RLE blocks inflates to 1 GiB, and a frame header may
 * declare a 2 GiB window that the decoder (fzstd) would allocate before writing a byte. So
 * the frame is walked first — one frame, its window and declared content size within the
 * budget, every block header sane — and then inflated in a stream that stops at the first
 * byte past the budget. Memory is bounded by the budget plus one window; time by the budget.
 */
import { Decompress } from 'fzstd';

/** Largest window a frame may declare (a zstd encoder sizes it to the input; OpenClaw's events are ≤ 4 MiB). */
const MAX_WINDOW = 16 * 1024 * 1024;
const MAGIC = 0xfd2fb528;
/** Zstd's largest block (Block_Maximum_Size). */
const MAX_BLOCK = 128 * 1024;

/** Thrown when a blob is not one sane zstd frame, or would inflate past its budget. */
export class InflateError extends Error {}

function readLE(b: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = n - 1; i >= 0; i--) v = v * 256 + (b[at + i] ?? 0);
  return v;
}

/**
 * Check the frame header and walk its blocks to the end of the frame (no decoding).
 * Throws InflateError naming what is wrong.
 */
function checkFrame(b: Uint8Array, limit: number): void {
  if (b.length < 6 || readLE(b, 0, 4) !== MAGIC) throw new InflateError('not a zstd frame (bad magic number)');
  const flg = b[4] ?? 0;
  const single = (flg >> 5) & 1;
  const checksum = (flg >> 2) & 1;
  const dictBytes = [0, 1, 2, 4][flg & 3] ?? 0;
  const fcsFlag = flg >> 6;
  if (flg & 8) throw new InflateError('reserved bit set in the zstd frame header');
  let at = 5;
  let window = 0;
  if (!single) {
    const wd = b[at++] ?? 0;
    const base = 2 ** (10 + (wd >> 3));
    window = base + (base / 8) * (wd & 7);
  }
  at += dictBytes;
  const fcsBytes = fcsFlag ? 1 << fcsFlag : single;
  if (fcsBytes) {
    const fcs = readLE(b, at, fcsBytes) + (fcsBytes === 2 ? 256 : 0);
    if (fcs > limit) throw new InflateError(`the frame declares ${fcs} bytes, more than the ${limit} allowed`);
    if (single) window = fcs;
    at += fcsBytes;
  }
  if (window > MAX_WINDOW) throw new InflateError(`the frame declares a ${window}-byte window (at most ${MAX_WINDOW})`);
  for (let last = 0; !last; ) {
    if (at + 3 > b.length) throw new InflateError('the zstd frame is truncated (no last block)');
    const h = readLE(b, at, 3);
    last = h & 1;
    const type = (h >> 1) & 3;
    const size = h >>> 3;
    at += 3;
    if (type === 3) throw new InflateError('reserved zstd block type');
    if (size > MAX_BLOCK) throw new InflateError(`a zstd block of ${size} bytes (at most ${MAX_BLOCK})`);
    at += type === 1 ? 1 : size;
  }
  at += checksum * 4;
  if (at !== b.length) throw new InflateError(at > b.length ? 'the zstd frame is truncated' : 'bytes after the zstd frame (one event is one frame)');
}

/**
 * Inflate `blob` (one zstd frame) to at most `limit` bytes, or throw InflateError.
 * The output never exceeds `limit` in memory: decoding stops at the first block past it.
 */
export function inflateBounded(blob: Uint8Array, limit: number): Uint8Array {
  checkFrame(blob, limit);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const d = new Decompress((chunk) => {
    total += chunk.length;
    if (total > limit) throw new InflateError(`inflates past the ${limit} bytes allowed`);
    chunks.push(chunk);
  });
  try {
    d.push(blob, true);
  } catch (err) {
    if (err instanceof InflateError) throw err;
    throw new InflateError((err as Error).message);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}
