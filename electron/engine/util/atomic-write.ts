/**
 * Atomic file writes: temp file in the same directory, fsync, rename, fsync the directory.
 * A crash at any point leaves either the old file or the new one, never a torn file.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { namingPath } from '../core/errors';

/** fsync a directory (after a rename in it); a no-op where directories cannot be opened. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some platforms (Windows) cannot open a directory; the rename is still atomic there.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Write `data` to `file` atomically (synchronous; for small and medium files). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, opts: { mode?: number } = {}): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'w', opts.mode ?? 0o644);
    fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, file);
    fsyncDir(dir);
  } catch (err) {
    if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw namingPath(err, file, { tmp, as: 'write' });
  }
}

/** Append to a file and fsync it before returning (appends are not atomic, but durable). */
export function appendFileDurableSync(file: string, data: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    fs.writeSync(fd, Buffer.from(data, 'utf8'));
    fs.fsyncSync(fd);
  } catch (err) {
    throw namingPath(err, file);
  } finally {
    fs.closeSync(fd);
  }
}
