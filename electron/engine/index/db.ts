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

/** How much of an index file SQLite may memory-map (past it, pages are read as usual). */
export const MMAP_BYTES = 1 << 30;

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
}

/** Load sqlite-vec; inside a packaged Electron app the extension lives in app.asar.unpacked. */
export function defaultLoadVec(db: Db): void {
  const file = sqliteVec.getLoadablePath().replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
  db.loadExtension(file);
}

/** Open (creating the parent directory) an index database with Cairn's pragmas. */
export function openDatabase(file: string, opts: OpenDatabaseOptions = {}): OpenedDatabase {
  if (!opts.readonly) fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: Db;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: opts.readonly ?? false });
  } catch (err) {
    throw new Error(
      `cannot open the index database ${file}: ${(err as Error).message}. ` +
        'If better-sqlite3 failed to load, run `npm rebuild better-sqlite3`; if the file is corrupt, delete it (it is rebuilt from your files).',
    );
  }
  db.pragma('busy_timeout = 5000');
  // Read through a memory map rather than read() into SQLite's 2 MB page cache: a vec0 KNN
  // scan reads every stored vector (44 MB at 100k chunks × 100 d) on each query, and copying
  // it through the page cache made up a third of the query (100k: 22 → 15 ms). The pages
  // are the OS's file cache, shared and reclaimable; SQLite falls back to read() by itself
  // where mmap is unavailable.
  db.pragma(`mmap_size = ${MMAP_BYTES}`);
  if (!opts.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
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
