/**
 * Atomic rewrites of a transcript: temp file in the same directory, fsync, rename, fsync the
 * directory. Kept lines are written from their original text, so unknown entry types and
 * fields survive byte-for-byte; only new entries are serialised.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir, writeFileAtomicSync } from '../util/atomic-write';
import { serializeLine } from './append';

/** A kept line (its original text) or a new entry to serialise. */
export type RewriteLine = string | { entry: unknown };

/** Rewrite `file` atomically with `lines` (each followed by "\n"). */
export function rewriteTranscript(file: string, lines: RewriteLine[]): void {
  const text = lines.map((l) => (typeof l === 'string' ? l : serializeLine(l.entry))).join('\n');
  writeFileAtomicSync(file, lines.length ? `${text}\n` : '');
}

function tempName(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
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
  const tail = Buffer.alloc(n);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, tail, 0, n, bytes - n);
  } finally {
    fs.closeSync(fd);
  }
  return { bytes, tail };
}

export class TranscriptChangedError extends Error {
  constructor(file: string) {
    super(`${file} was rewritten by someone else while this operation ran; nothing was written`);
    this.name = 'TranscriptChangedError';
  }
}

/**
 * Append `lines` to `file` atomically: copy the current file to a temp file, append there,
 * fsync, rename over the original. A crash at any point leaves the old file or the new one.
 * With `expect`, refuses (TranscriptChangedError) when the file no longer starts with what was
 * read; lines appended since then are kept (they are part of the copy).
 */
export function appendAtomic(file: string, lines: string[], expect?: ExpectedPrefix): void {
  const stat = fs.statSync(file);
  if (expect) {
    if (stat.size < expect.bytes || !prefixFingerprint(file, expect.bytes).tail.equals(expect.tail)) {
      throw new TranscriptChangedError(file);
    }
  }
  const tmp = tempName(file);
  try {
    fs.copyFileSync(file, tmp);
    const fd = fs.openSync(tmp, 'a+');
    try {
      let prefix = '';
      const size = fs.fstatSync(fd).size;
      if (size > 0) {
        const b = Buffer.alloc(1);
        fs.readSync(fd, b, 0, 1, size - 1);
        if (b[0] !== 0x0a) prefix = '\n';
      }
      const buf = Buffer.from(`${prefix}${lines.join('\n')}${lines.length ? '\n' : ''}`, 'utf8');
      let off = 0;
      while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(tmp, stat.mode & 0o777);
    fs.renameSync(tmp, file);
    fsyncDir(path.dirname(file));
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Remove temp files of `file` left behind by a process that died mid-write. */
export function removeStaleTemps(file: string): void {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length).split('.')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
