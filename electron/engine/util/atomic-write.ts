/**
 * Atomic file writes: temp file in the same directory, fsync, rename, fsync the directory.
 * A crash at any point leaves either the old file or the new one, never a torn file.
 *
 * The one writer keeps what the user set on a file it replaces: its mode (a `cairn.json` made
 * 0600 because it holds an API key stays 0600) and, where the OS lets this process, its owner
 * and group. A new file gets `newMode` (default 0644, narrowed by the umask as open(2) does);
 * files that may hold secrets pass {@link PRIVATE_FILE_MODE}. `mode` forces a mode whatever was
 * there (private records such as the serve token's neighbours).
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { namingPath } from '../base/errors';

/** Mode of a new file that may hold a secret (settings with API keys, tokens, backups of them): owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** Mode of any other new file (notes, transcripts, indexes' side files), before the umask. */
export const DEFAULT_FILE_MODE = 0o644;

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

/**
 * Write all of `buf` to `fd`: write(2) may write less than asked (a full disk, a signal, a
 * pipe), and a single call would then leave the rest out without an error.
 */
export function writeAllSync(fd: number, buf: Uint8Array): void {
  let off = 0;
  while (off < buf.length) off += fs.writeSync(fd, buf, off, buf.length - off);
}

/** How to write a file atomically; see the file header for the rules. */
export interface AtomicWriteOptions {
  /** Force this mode, whatever the file had before. */
  mode?: number;
  /** Mode of the file when it does not exist yet (default {@link DEFAULT_FILE_MODE}; the umask applies). */
  newMode?: number;
}

/** The mode, owner and group of what `file` names now (following a symlink), or undefined when absent. */
function existingMeta(file: string): { mode: number; uid: number; gid: number } | undefined {
  try {
    const st = fs.statSync(file);
    return st.isFile() ? { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid } : undefined;
  } catch {
    return undefined;
  }
}

/** Give the temp file the owner and group of the file it replaces; refused (EPERM) unless root or a group the user is in. */
function keepOwner(fd: number, meta: { uid: number; gid: number }): void {
  if (typeof process.getuid !== 'function') return;
  if (meta.uid === process.getuid() && meta.gid === process.getgid?.()) return;
  try {
    fs.fchownSync(fd, meta.uid, meta.gid);
  } catch {
    try {
      // Not root: the group alone may still be kept (a group the user belongs to).
      fs.fchownSync(fd, process.getuid(), meta.gid);
    } catch {
      // The file becomes the writer's, as any editor's save-by-rename does.
    }
  }
}

/** Write `data` to `file` atomically (synchronous; for small and medium files). */
export function writeFileAtomicSync(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const before = opts.mode === undefined ? existingMeta(file) : undefined;
  let fd: number | undefined;
  try {
    // Created owner-only whatever comes next: the content is never readable by others in between.
    fd = fs.openSync(tmp, 'wx', before || opts.mode !== undefined ? 0o600 : (opts.newMode ?? DEFAULT_FILE_MODE));
    // Exact, not through the umask: what the user (or the caller) chose is what the file keeps.
    if (opts.mode !== undefined) fs.fchmodSync(fd, opts.mode);
    else if (before) {
      keepOwner(fd, before);
      fs.fchmodSync(fd, before.mode);
    }
    writeAllSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
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
    writeAllSync(fd, Buffer.from(data, 'utf8'));
    fs.fsyncSync(fd);
  } catch (err) {
    throw namingPath(err, file);
  } finally {
    fs.closeSync(fd);
  }
}
