/**
 * How a sync treats one file that fails: reading it (EACCES, EIO, too big, no longer a
 * regular file) or writing it to the index. Either way the file is skipped and named with
 * a reason in the sync's `unreadable` list, and the rest of the files are indexed. Also the
 * quick stat-only dirty check (filesDiffer).
 */
import fs from 'node:fs';
import type { UnreadableFile } from '../../../shared/types/search';
import type { Db } from './db';
import type { SourceFile, VirtualSource } from './sources';
import { MAX_MEMORY_FILE_BYTES as MAX_SOURCE_BYTES, readRegularFile } from '../util/safe-read';

/**
 * Read one source file without letting it stop the sync: an error (EACCES from a chmod 000
 * note, EIO, a path swapped for a FIFO since it was listed) becomes a skipped entry.
 */
export async function readSource(abs: string, shown: string): Promise<{ text: string; lineNumbers?: number[] } | { unreadable: UnreadableFile }> {
  try {
    const r = await readRegularFile(abs, MAX_SOURCE_BYTES);
    if (r.truncated) return { unreadable: { path: shown, reason: `EFBIG: larger than ${MAX_SOURCE_BYTES} bytes` } };
    return { text: r.text };
  } catch (err) {
    return { unreadable: { path: shown, reason: readFailure(err) } };
  }
}

/** The reason shown for a file that could not be read (e.g. "EACCES: permission denied"). */
export function readFailure(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code}: ${e.message.replace(/^\w+: /, '').replace(/, open '.*'$/, '')}` : e.message;
}

/** The reason shown for a file whose rows could not be written (e.g. "not indexed: SQLITE_FULL: …"). */
export function writeFailure(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(err);
  return `not indexed: ${typeof e.code === 'string' ? `${e.code}: ` : ''}${message}`;
}

/** A listed source's mtime and size: a regular file's, or a store session's fingerprint; undefined when gone. */
export function statSource(src: SourceFile): { mtimeMs: number; size: number } | undefined {
  if (src.virtual) {
    try {
      return src.virtual.stat();
    } catch {
      return undefined; // the store cannot be read now: its rows are kept until it can
    }
  }
  try {
    const st = fs.lstatSync(src.abs);
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

/** A store session's text, or why it cannot be read (skipped like an unreadable file). */
export function readVirtual(src: SourceFile & { virtual?: VirtualSource }): { text: string; lineNumbers?: number[] } | { unreadable: UnreadableFile } {
  try {
    return (src.virtual as VirtualSource).read();
  } catch (err) {
    return { unreadable: { path: src.path, reason: (err as Error).message } };
  }
}

/**
 * Quick dirty check without reading contents: true when a listed file is new, gone, or has
 * another mtime/size than when it was indexed. The stats run off the main thread, a group at
 * a time (a 900-file workspace is 900 lstats: a blocking loop of them stalled the event loop).
 */
export async function filesDiffer(db: Db, files: readonly SourceFile[]): Promise<boolean> {
  const rows = db.prepare('SELECT path, mtime, size FROM files').all() as { path: string; mtime: number; size: number }[];
  if (rows.length !== files.length) return true;
  const byPath = new Map(rows.map((r) => [r.path, r]));
  const GROUP = 64;
  for (let i = 0; i < files.length; i += GROUP) {
    const group = files.slice(i, i + GROUP);
    const stats = await Promise.all(group.map((f) => (f.virtual ? Promise.resolve(statSource(f) ?? null) : fs.promises.lstat(f.abs).catch(() => null))));
    for (let j = 0; j < group.length; j++) {
      const r = byPath.get(group[j]!.path);
      const st = stats[j];
      if (!r || !st || Math.round(st.mtimeMs) !== r.mtime || st.size !== r.size) return true;
    }
  }
  return false;
}
