/**
 * The one connection factory (STYLE §7): every SQLite handle of the memory index is opened
 * here, with WAL, a busy timeout, and sqlite-vec loaded. When sqlite-vec cannot load, the
 * handle still opens and says why (with a fix-it hint); callers then use the in-process
 * cosine fallback and show the warning — never silently.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

export type Db = Database.Database;

/**
 * Page size of a new index file (SQLite's largest; an existing file keeps its own). A vec0
 * KNN query reads every stored vector — chunks of 1,024 vectors, one ≈ 400 KB blob each —
 * and SQLite reads a blob's overflow pages one `pread` at a time, straight from the file:
 * with 4 KB pages that is ~11,000 reads per query at 100k chunks. Measured at 100k × 100 d
 * (CPU per query, p50): vector side 24.4 → 15.6 ms, keyword side 9.2 → 7.4 ms, hybrid
 * 32 → 25 ms, full index 51 → 50 s, file 437 → 390 MB, same peak RSS. (A 1 GB `mmap_size`
 * was as fast but added ~170 MB of mapped file pages to the resident set.)
 */
export const PAGE_SIZE = 65536;

/** The page size recorded in a database file's header, or null if it is not one. */
export function filePageSize(file: string): number | null {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const head = Buffer.alloc(18);
      if (fs.readSync(fd, head, 0, 18, 0) < 18 || head.toString('latin1', 0, 15) !== 'SQLite format 3') return null;
      const raw = head.readUInt16BE(16);
      return raw === 1 ? 65536 : raw;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
}

export interface OpenedDatabase {
  db: Db;
  /** True when `vec0` is available on this handle. */
  vecLoaded: boolean;
  /** Why sqlite-vec did not load, with what to do about it. */
  vecError: string | null;
}

export interface OpenDatabaseOptions {
  /** Open read-only (no WAL switch, no directory creation). */
  readonly?: boolean;
  /**
   * Load sqlite-vec into `db`; tests pass a loader that throws to exercise the fallback.
   * `false` skips loading.
   */
  loadVec?: ((db: Db) => void) | false;
  /** How long a statement waits for another connection's lock, in ms (5,000); 0 fails at once (a probe). */
  busyTimeoutMs?: number;
  /** The file must exist (a probe of an index that is there); a read-only open implies it. */
  mustExist?: boolean;
  /**
   * `index` (default): the index's page size, WAL and `synchronous = NORMAL`. `keep`: the
   * file's journal and page size as they are (a probe that switches the journal itself).
   * `side`: WAL and `synchronous = NORMAL` with SQLite's page size, for a side file of small
   * appends (the rebuild's resume cache).
   */
  tuning?: 'index' | 'keep' | 'side';
  /** WAL pages before an automatic checkpoint (SQLite's default 1,000). */
  walAutocheckpoint?: number;
}

/** Load sqlite-vec; inside a packaged Electron app the extension lives in app.asar.unpacked. */
export function defaultLoadVec(db: Db): void {
  const file = sqliteVec.getLoadablePath().replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  db.loadExtension(file);
}

/**
 * The error of an index database that cannot be opened, with how to fix it; SQLite's code
 * (`SQLITE_NOTADB`…) is kept, so a caller can still tell a corrupt file (memory-index.ts
 * moves it aside and rebuilds) from a locked one.
 */
function cannotOpen(file: string, err: unknown): Error {
  const out = new Error(
    `cannot open the index database ${file}: ${(err as Error).message}. ` +
      'If better-sqlite3 failed to load, run `npm rebuild better-sqlite3`; if the file is corrupt, delete it (it is rebuilt from your files).',
    { cause: err },
  );
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? Object.assign(out, { code }) : out;
}

/** The pragmas of `opts.tuning` (see {@link OpenDatabaseOptions}). */
function tune(db: Db, opts: OpenDatabaseOptions): void {
  const tuning = opts.readonly ? 'keep' : (opts.tuning ?? 'index');
  if (tuning === 'index') db.pragma(`page_size = ${PAGE_SIZE}`); // before WAL; a no-op on an existing file
  if (tuning !== 'keep') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  if (opts.walAutocheckpoint !== undefined) db.pragma(`wal_autocheckpoint = ${opts.walAutocheckpoint}`);
  // A read of the header: a file that is not a database fails here, inside the guard.
  db.pragma('schema_version', { simple: true });
}

/**
 * Open (creating the parent directory) an index database with Cairn's pragmas. A handle whose
 * pragmas fail (a file that is not a database: SQLite reads the header only then) is closed
 * before the error is thrown, never left open.
 */
export function openDatabase(file: string, opts: OpenDatabaseOptions = {}): OpenedDatabase {
  const mustExist = opts.readonly === true || opts.mustExist === true;
  if (!mustExist) fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: Db;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: mustExist, timeout: opts.busyTimeoutMs ?? 5000 });
  } catch (err) {
    throw cannotOpen(file, err);
  }
  try {
    tune(db, opts);
  } catch (err) {
    db.close();
    throw cannotOpen(file, err);
  }
  let vecLoaded = false;
  let vecError: string | null = null;
  const load = opts.loadVec === undefined ? defaultLoadVec : opts.loadVec;
  if (load) {
    try {
      load(db);
      vecLoaded = true;
    } catch (err) {
      vecError =
        `sqlite-vec could not be loaded (${(err as Error).message}); vector search uses a slower in-process cosine scan. ` +
        'Fix: reinstall the sqlite-vec package for this platform (npm rebuild / npm ci), then run `cairn doctor`.';
    }
  } else {
    vecError = 'sqlite-vec loading is turned off; vector search uses an in-process cosine scan.';
  }
  return { db, vecLoaded, vecError };
}
