/**
 * Opening a database that belongs to another program (OpenClaw's `openclaw-agent.sqlite`)
 * without creating or changing any file beside it.
 *
 * Why not `file:…?mode=ro&immutable=1`: the better-sqlite3 build we ship does not pass
 * SQLITE_OPEN_URI, so a `file:` name is taken as a relative path (measured with strace:
 * it tried to open `./file:/…`). And a plain read-only open of a WAL database creates the
 * `-shm` file beside it. So:
 * - a rollback-journal database (OpenClaw 2026.9's mode: header bytes 18/19 = 1) with no
 *   hot `-journal`: opened read-only in place ('direct'). In rollback mode a reader creates
 *   no file and writes nothing (it takes shared locks only), and it reads only the pages
 *   it needs — reading a 218 MB store into memory took 1 s per change (bench/openclaw-store.ts).
 * - a WAL-mode database with no `-wal` beside it (OpenClaw stopped cleanly): read the file
 *   into memory and open that buffer (sqlite3_deserialize), the WAL-mode header switched to
 *   rollback in the copy only (all content is in the main file when no -wal exists).
 *   Nothing in the foreign dir is opened for writing, not even a lock byte is taken.
 * - a non-empty `-wal` or `-journal` exists (OpenClaw is writing): copy the file and its
 *   `-wal`/`-journal` into Cairn's own snapshot dir and open the copy there; SQLite replays
 *   the WAL (or rolls back the hot journal) in the copy, which gives a consistent state.
 * A read is retried when the file changed while it was read (a torn copy).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EngineError } from '../../core/errors';

/** How the database was opened (shown by doctor, asserted by tests). */
export type ReadOnlyOpenMode = 'direct' | 'in-memory' | 'snapshot';

export interface ReadOnlyDb {
  db: Database.Database;
  mode: ReadOnlyOpenMode;
  /** Size and mtime of the database and its -wal when read: a change means new events. */
  stamp: string;
}

const HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const ATTEMPTS = 5;

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

/** Size+mtime of the db and its side files; equal stamps mean nothing was written. */
export function fileStamp(file: string): string {
  return ['', '-wal', '-journal']
    .map((s) => {
      const st = statOrNull(file + s);
      return st ? `${st.size}:${st.mtimeMs}` : '-';
    })
    .join('|');
}

/** The 100-byte database header, checked to be SQLite's. */
function readHeader(file: string): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(100);
    const n = fs.readSync(fd, buf, 0, 100, 0);
    if (n < 100 || !buf.subarray(0, 16).equals(HEADER)) throw new EngineError('unavailable', `${file}: not an SQLite database (no "SQLite format 3" header)`);
    return buf;
  } finally {
    fs.closeSync(fd);
  }
}

function openInMemory(file: string): Database.Database {
  const buf = fs.readFileSync(file);
  if (buf.length < 100 || !buf.subarray(0, 16).equals(HEADER)) throw new EngineError('unavailable', `${file}: not an SQLite database (no "SQLite format 3" header)`);
  // Bytes 18/19 = 2 mark WAL mode; the in-memory VFS has no WAL, and with no -wal file the
  // main file holds every committed page, so rollback mode reads the same content.
  if (buf[18] === 2) buf[18] = 1;
  if (buf[19] === 2) buf[19] = 1;
  return new Database(buf, { readonly: true });
}

/** Remove a snapshot left from when the owner was writing (a copy of the user's data should not linger). */
function removeSnapshot(file: string, snapshotDir: string): void {
  const copy = path.join(snapshotDir, path.basename(file));
  for (const s of ['', '-wal', '-journal', '-shm']) fs.rmSync(copy + s, { force: true });
}

function openSnapshot(file: string, snapshotDir: string): Database.Database {
  fs.mkdirSync(snapshotDir, { recursive: true });
  const copy = path.join(snapshotDir, path.basename(file));
  for (const s of ['-wal', '-journal', '-shm']) fs.rmSync(copy + s, { force: true });
  fs.copyFileSync(file, copy);
  // The -wal/-journal after the main file: frames committed meanwhile are in the -wal copy
  // (its checksums make SQLite ignore a torn last frame).
  for (const s of ['-wal', '-journal']) {
    try {
      fs.copyFileSync(file + s, copy + s);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  // Opened writable: replaying the WAL / rolling back a hot journal writes — in our copy only.
  const db = new Database(copy, { fileMustExist: true });
  db.pragma('query_only = ON');
  return db;
}

/**
 * Open `file` for reading without writing anything beside it. `snapshotDir` is in Cairn's
 * own data dir and is used only while the owner has a -wal/-journal open.
 * Throws an Error naming the file when it is not a readable SQLite database.
 */
export function openForeignSqlite(file: string, snapshotDir: string): ReadOnlyDb {
  let lastErr: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = fileStamp(file);
    const wal = statOrNull(`${file}-wal`);
    const journal = statOrNull(`${file}-journal`);
    const busy = (wal?.size ?? 0) > 0 || (journal?.size ?? 0) > 0;
    let db: Database.Database | undefined;
    let mode: ReadOnlyOpenMode = 'snapshot';
    try {
      if (busy) db = openSnapshot(file, snapshotDir);
      else {
        removeSnapshot(file, snapshotDir);
        const h = readHeader(file);
        mode = h[18] === 1 && h[19] === 1 ? 'direct' : 'in-memory';
        db = mode === 'direct' ? new Database(file, { readonly: true, fileMustExist: true }) : openInMemory(file);
      }
      // Touch the schema now: a torn copy fails here rather than in a later query.
      db.prepare('SELECT count(*) FROM sqlite_master').get();
    } catch (err) {
      db?.close();
      lastErr = err;
      if (fileStamp(file) === before) break; // not a race: the file itself is bad
      continue;
    }
    if (fileStamp(file) === before) return { db, mode, stamp: before };
    db.close(); // written while we read: read again
  }
  const why = lastErr instanceof Error ? lastErr.message : 'it kept changing while being read';
  throw new EngineError('unavailable', `${file}: cannot read the database (${why})`);
}
