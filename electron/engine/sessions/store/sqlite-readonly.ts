/**
 * Opening a database that belongs to another program (OpenClaw's `openclaw-agent.sqlite`)
 * without creating or changing any file beside it.
 *
 * Why not `file:…?mode=ro&immutable=1`: the better-sqlite3 build we ship does not pass
 * SQLITE_OPEN_URI, so a `file:` name is taken as a relative path (measured with strace:
 * it tried to open `./file:/…`). And a read-only open of a WAL database whose `-wal`/`-shm`
 * are absent creates them beside it (SQLite opens both with O_CREAT). So, by what is there:
 * - rollback-journal mode (header bytes 18/19 = 1) and no hot `-journal`: opened read-only
 *   in place ('direct'). A rollback reader creates no file and takes shared locks only.
 * - WAL mode (bytes 18/19 = 2, OpenClaw 2026.9's real store) with its `-wal` and `-shm`
 *   beside it — OpenClaw is running: opened read-only in place ('wal-in-place'). SQLite
 *   then opens the two existing files, takes a read mark in the -shm (the shared-memory
 *   protocol every reader follows) and reads a consistent snapshot; the writer never waits
 *   for it and nothing is created. The connection is closed after each use: one held open
 *   would keep OpenClaw from removing its -wal/-shm when it exits.
 * - WAL mode with no `-wal` (OpenClaw stopped cleanly): every committed page is in the main
 *   file; it is read into memory and opened there (sqlite3_deserialize), the header switched
 *   to rollback in the copy only ('in-memory'). Not a byte beside it is opened for writing.
 * - only when SQLite truly cannot read in place — a non-empty `-wal` without its `-shm`
 *   (SQLite would create the -shm), a hot `-journal`, or an in-place open that failed — the
 *   file and its side files are copied into Cairn's own snapshot dir and read there
 *   ('snapshot'; the reason is kept for doctor). A copy is re-read when the file changed
 *   while it was copied (a torn copy).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EngineError } from '../../core/errors';

/** How the database was opened (shown by doctor, asserted by tests). */
export type ReadOnlyOpenMode = 'direct' | 'wal-in-place' | 'in-memory' | 'snapshot';

export interface ReadOnlyDb {
  db: Database.Database;
  mode: ReadOnlyOpenMode;
  /** Size and mtime of the database and its -wal when read: a change means new events. */
  stamp: string;
  /** Why a copy had to be read ('snapshot' only). */
  reason?: string;
  /** Close after each use rather than keep it (a live WAL read in place). */
  transient: boolean;
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

/** The 100-byte database header, checked to be SQLite's (a 0-byte, zeroed or foreign file is named as such). */
function readHeader(file: string, size: number): Buffer {
  if (size === 0) throw new Error('the file is empty (0 bytes)');
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(100);
    const n = fs.readSync(fd, buf, 0, 100, 0);
    if (n < 100 || !buf.subarray(0, 16).equals(HEADER)) {
      const zero = buf.subarray(0, n).every((b) => b === 0);
      throw new Error(`not an SQLite database (${zero ? 'its first bytes are zeros' : 'no "SQLite format 3" header'})`);
    }
    return buf;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A rollback-mode or checkpointed file shorter than its header says is cut: SQLite would
 * read the missing pages as zeros and answer with fewer rows instead of an error.
 */
function checkLength(h: Buffer, size: number): void {
  const pageSize = h.readUInt16BE(16) === 1 ? 65536 : h.readUInt16BE(16);
  const pages = h.readUInt32BE(28);
  // The in-header size is valid only when "version-valid-for" equals the change counter.
  if (pages > 0 && h.readUInt32BE(92) === h.readUInt32BE(24) && size < pages * pageSize) {
    throw new Error(`the file is truncated: its header says ${pages} pages of ${pageSize} bytes (${pages * pageSize} bytes), the file has ${size}`);
  }
}

/** The file as a regular, non-empty SQLite file, or an Error saying what it is instead. */
function checkFile(file: string): fs.Stats {
  const st = fs.statSync(file);
  if (st.isDirectory()) throw new Error('a directory is where the database file should be');
  if (!st.isFile()) throw new Error('not a regular file');
  return st;
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

/** How to open `file` now, from what is beside it (see the header comment). */
function choose(file: string, st: fs.Stats): { mode: ReadOnlyOpenMode; reason?: string } {
  const wal = statOrNull(`${file}-wal`);
  const shm = statOrNull(`${file}-shm`);
  const journal = statOrNull(`${file}-journal`);
  const h = readHeader(file, st.size);
  if ((journal?.size ?? 0) > 0) return { mode: 'snapshot', reason: 'a -journal is beside it (a write in progress, or a hot journal to roll back)' };
  const walMode = h[18] === 2 || h[19] === 2;
  if (!walMode) {
    checkLength(h, st.size);
    return { mode: 'direct' };
  }
  if (wal && shm) return { mode: 'wal-in-place' };
  if ((wal?.size ?? 0) > 0) return { mode: 'snapshot', reason: 'a -wal without its -shm is beside it (SQLite would create the -shm to read it in place)' };
  checkLength(h, st.size);
  return { mode: 'in-memory' };
}

function openAs(file: string, snapshotDir: string, mode: ReadOnlyOpenMode): Database.Database {
  if (mode === 'snapshot') return openSnapshot(file, snapshotDir);
  removeSnapshot(file, snapshotDir);
  if (mode === 'in-memory') return openInMemory(file);
  // A short busy timeout: a reader waits only for a WAL recovery or a checkpoint's restart.
  return new Database(file, { readonly: true, fileMustExist: true, timeout: 250 });
}

/** One open of `file` as `mode`, its schema touched (a torn copy fails here, not in a later query). */
function tryOpen(file: string, snapshotDir: string, mode: ReadOnlyOpenMode): Database.Database {
  let db: Database.Database | undefined;
  try {
    db = openAs(file, snapshotDir, mode);
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (err) {
    db?.close();
    throw err;
  }
}

/**
 * Open `file` for reading without writing anything beside it. `snapshotDir` is in Cairn's
 * own data dir and is used only when SQLite cannot read in place.
 * Throws an Error naming the file and the cause when it is not a readable SQLite database.
 */
export function openForeignSqlite(file: string, snapshotDir: string): ReadOnlyDb {
  let lastErr: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const before = fileStamp(file);
    let picked: { mode: ReadOnlyOpenMode; reason?: string };
    let db: Database.Database;
    try {
      picked = choose(file, checkFile(file));
      try {
        db = tryOpen(file, snapshotDir, picked.mode);
      } catch (err) {
        if (picked.mode !== 'wal-in-place') throw err;
        // SQLite could not read it in place (e.g. a -shm Cairn may not open): read a copy.
        picked = { mode: 'snapshot', reason: `reading it in place failed: ${(err as Error).message}` };
        db = tryOpen(file, snapshotDir, 'snapshot');
      }
    } catch (err) {
      lastErr = err;
      if (fileStamp(file) === before) break; // not a race: the file itself is bad
      continue;
    }
    const { mode, reason } = picked;
    // In place, SQLite's own locking gives a consistent read whatever is written meanwhile.
    const consistent = mode === 'wal-in-place' || mode === 'direct' || fileStamp(file) === before;
    if (consistent) return { db, mode, stamp: before, ...(reason ? { reason } : {}), transient: mode === 'wal-in-place' };
    db.close(); // copied while it was written: read again
  }
  const why = lastErr instanceof Error ? lastErr.message : 'it kept changing while being read';
  throw new EngineError('unavailable', `${file}: cannot read the database (${why})`);
}
