/**
 * Reading files whose path a user or a model chose (workspace tools, memory files) without
 * ever blocking the engine's thread: a FIFO, a character device or a socket is refused
 * before a byte is read, and the read is capped.
 * The file is opened with O_NONBLOCK — opening a FIFO for reading otherwise waits for a
 * writer, forever — and the check is made on the open descriptor (fstat), so swapping the
 * path for a FIFO between a stat and the read cannot slip past it.
 */
import fs from 'node:fs';
import { EngineError } from '../base/errors';

/** The path names something other than a regular file (a FIFO, device, socket, directory). */
export class NotRegularFileError extends EngineError {
  constructor(readonly file: string, readonly kind: string) {
    super('forbidden', `${file}: refused: not a regular file (${kind})`);
    this.name = 'NotRegularFileError';
  }
}

export interface CappedRead {
  text: string;
  /** The file's size in bytes (may exceed what was read). */
  size: number;
  /** True when only the first `maxBytes` were read. */
  truncated: boolean;
  mtimeMs: number;
}

/** Longest text a model's `read` tool returns in one call (chat's and the memory flush's); the model pages for more. */
export const READ_MAX_CHARS = 50_000;

/** Most of a file a model's `read` and `edit` tools load (chat's and the memory flush's); this only bounds a hostile one. */
export const READ_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Largest memory file Cairn reads (index sync, memory_get); bigger ones are refused/skipped, not loaded. */
export const MAX_MEMORY_FILE_BYTES = 256 * 1024 * 1024;

const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

function kindOf(st: fs.Stats): string {
  if (st.isFIFO()) return 'a named pipe';
  if (st.isDirectory()) return 'a directory';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** Read at most `maxBytes` of the regular file `file` (async: the engine thread keeps running). */
export async function readRegularFile(file: string, maxBytes: number): Promise<CappedRead> {
  const fh = await fs.promises.open(file, FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new NotRegularFileError(file, kindOf(st));
    const n = Math.min(st.size, maxBytes);
    const buf = Buffer.alloc(n);
    let off = 0;
    while (off < n) {
      const { bytesRead } = await fh.read(buf, off, n - off, off);
      if (bytesRead === 0) break;
      off += bytesRead;
    }
    return { text: buf.subarray(0, off).toString('utf8'), size: st.size, truncated: st.size > off, mtimeMs: st.mtimeMs };
  } finally {
    await fh.close();
  }
}

/**
 * The synchronous twin for callers that are synchronous today (the memory flush tools, the
 * session-start prompt): still never blocks on a FIFO, and reads at most `maxBytes`.
 */
export function readRegularFileSync(file: string, maxBytes: number): CappedRead {
  const fd = fs.openSync(file, FLAGS);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFileError(file, kindOf(st));
    const n = Math.min(st.size, maxBytes);
    const buf = Buffer.alloc(n);
    let off = 0;
    while (off < n) {
      const r = fs.readSync(fd, buf, off, n - off, off);
      if (r === 0) break;
      off += r;
    }
    return { text: buf.subarray(0, off).toString('utf8'), size: st.size, truncated: st.size > off, mtimeMs: st.mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}

/** Bytes `offset`…`offset + length` of the regular file `file` (fewer at its end), its size and mtime. */
export function readRegularFileRangeSync(file: string, offset: number, length: number): { bytes: Buffer; size: number; mtimeMs: number } {
  const fd = fs.openSync(file, FLAGS);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new NotRegularFileError(file, kindOf(st));
    const n = Math.max(0, Math.min(length, st.size - offset));
    const buf = Buffer.alloc(n);
    let off = 0;
    while (off < n) {
      const r = fs.readSync(fd, buf, off, n - off, offset + off);
      if (r === 0) break;
      off += r;
    }
    return { bytes: buf.subarray(0, off), size: st.size, mtimeMs: st.mtimeMs };
  } finally {
    fs.closeSync(fd);
  }
}
