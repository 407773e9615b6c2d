/**
 * Writing to a transcript that other processes may write at the same moment — Cairn's app,
 * CLI and MCP server, and OpenClaw itself, which appends with O_APPEND and takes no lock of
 * ours. Two rules keep every line:
 *   1. Adding lines is always an append in place (one O_APPEND write + fsync, append.ts),
 *      never copy-and-rename: a copy made while another process appends misses its lines.
 *   2. A true rewrite (replacing the content) copies into a temp file under the
 *      cross-process lock and, right before the rename, carries over whatever was appended
 *      to the original since it was read.
 * Kept lines are written from their original text, so unknown entry types and fields
 * survive byte-for-byte; only new entries are serialised.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir } from '../util/atomic-write';
import { withFileLock } from '../util/file-lock';
import { assertOpenClawIdle } from '../util/openclaw-lock';
import { removeStaleTemps } from '../util/stale-temps';
import { appendLinesDurable, serializeLine } from './append';
import { EngineError } from '../core/errors';


/** A kept line (its original text) or a new entry to serialise. */
export type RewriteLine = string | { entry: unknown };

function tempName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
}

function readRange(file: string, from: number, to: number): Buffer {
  const buf = Buffer.alloc(Math.max(0, to - from));
  const fd = fs.openSync(file, 'r');
  try {
    let off = 0;
    while (off < buf.length) {
      const n = fs.readSync(fd, buf, off, buf.length - off, from + off);
      if (n === 0) break;
      off += n;
    }
    return off === buf.length ? buf : buf.subarray(0, off);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Rewrite `file` with `lines` (each followed by "\n"). `readBytes` is how much of the file
 * the lines were made from (default: its size now); bytes appended after that by any writer
 * are carried over to the end of the new file. Under the lock, atomic (temp, fsync, rename).
 */
export async function rewriteTranscript(file: string, lines: RewriteLine[], opts: { readBytes?: number } = {}): Promise<void> {
  const text = lines.map((l) => (typeof l === 'string' ? l : serializeLine(l.entry))).join('\n');
  const body = Buffer.from(lines.length ? `${text}\n` : '', 'utf8');
  await withFileLock(file, () => {
    assertOpenClawIdle(file);
    removeStaleTemps(file);
    let carried = opts.readBytes ?? fs.statSync(file).size;
    const mode = fs.statSync(file).mode & 0o777;
    const tmp = tempName(file);
    const fd = fs.openSync(tmp, 'w', mode);
    try {
      fs.writeSync(fd, body);
      // Carry over what arrived since the read, until the size holds still across a check:
      // an appender that takes no lock can still land a line in the instant between the last
      // check and the rename — the one window a lock-free writer leaves (docs/architecture.md).
      for (;;) {
        const size = fs.statSync(file).size;
        if (size <= carried) break;
        fs.writeSync(fd, readRange(file, carried, size));
        carried = size;
      }
      fs.fsyncSync(fd);
      fs.closeSync(fd);
      fs.renameSync(tmp, file);
      fsyncDir(path.dirname(file));
    } catch (err) {
      try {
        fs.closeSync(fd);
      } catch {
        // closed before the failure
      }
      fs.rmSync(tmp, { force: true });
      throw err;
    }
  });
}

export interface ExpectedPrefix {
  /** The file was at least this long when it was read. */
  bytes: number;
  /** The last bytes before `bytes` as read then (a cheap check that the prefix is unchanged). */
  tail: Buffer;
}

/** The bytes to remember now so that `appendAtomic` can check nothing was rewritten since. */
export function prefixFingerprint(file: string, bytes = fs.statSync(file).size): ExpectedPrefix {
  const n = Math.min(bytes, 4096);
  return { bytes, tail: readRange(file, bytes - n, bytes) };
}

/**
 * The fingerprint of the bytes a parsed transcript came from, rebuilt from its lines without
 * reading the file: a transcript parsed earlier (asynchronously, or held in a cache) is
 * planned on only if the file's own fingerprint still equals this one. Text that was not
 * valid UTF-8 rebuilds differently and so never matches — the caller reads the file again.
 */
export function parsedFingerprint(t: { rawLines: readonly string[]; endsWithNewline: boolean; bytes: number }): ExpectedPrefix {
  const n = Math.min(t.bytes, 4096);
  let tail = t.endsWithNewline && t.rawLines.length > 0 ? '\n' : '';
  for (let i = t.rawLines.length - 1; i >= 0 && Buffer.byteLength(tail, 'utf8') < n; i--) tail = `${i > 0 ? '\n' : ''}${t.rawLines[i] ?? ''}${tail}`;
  const buf = Buffer.from(tail, 'utf8');
  return { bytes: t.bytes, tail: buf.subarray(Math.max(0, buf.length - n)) };
}

/** True when `file` still starts with the bytes `expect` was taken from. */
export function prefixUnchanged(file: string, expect: ExpectedPrefix): boolean {
  return fs.statSync(file).size >= expect.bytes && prefixFingerprint(file, expect.bytes).tail.equals(expect.tail);
}

export class TranscriptChangedError extends EngineError {
  constructor(file: string) {
    super('conflict', `${file} was rewritten by someone else while this operation ran; nothing was written`);
    this.name = 'TranscriptChangedError';
  }
}

/**
 * Append `lines` to `file` as one O_APPEND write + fsync (append.ts), under the lock so no
 * Cairn rewrite replaces the file between the check and the write. With `expect`, refuses
 * (TranscriptChangedError) when the file no longer starts with what was read; lines
 * appended since by anyone stay where they are, before the new ones.
 */
export async function appendAtomic(file: string, lines: string[], expect?: ExpectedPrefix): Promise<void> {
  await withFileLock(file, () => {
    if (expect && !prefixUnchanged(file, expect)) throw new TranscriptChangedError(file);
    appendLinesDurable(file, lines);
  });
}
