/**
 * The embedding cache of a full rebuild that is still running, kept durable beside the
 * index (`<index>.sqlite.resume`), so a rebuild that is killed, crashes or is cancelled
 * resumes instead of restarting: the rebuild itself writes into a temp file in one
 * uncommitted transaction (reindex.ts) that is thrown away on any failure, and with a real
 * embedding model (tens of ms per chunk) redoing a 10k-chunk rebuild costs many minutes.
 *
 * Every batch of new vectors is also committed here (WAL, small transactions of up to 128); the
 * next rebuild carries these vectors in like the old index's cache; a rebuild that completes
 * deletes the file, since the new index then holds them all. Skipped for the static
 * embedder, which embed ~20k chunks/s: recomputing them is cheaper than writing them twice.
 */
import { openDatabase, type Db } from './db';
import { type Store } from './store';
import { halfBlob } from './half-float';

/** The side file of an index's resumable rebuild. */
export function resumeCacheFile(indexFile: string): string {
  return `${indexFile}.resume`;
}

/** An open resume cache; `close()` keeps it (for the next run), `discard()` deletes it. */
export interface ResumeCache {
  readonly file: string;
  /** `store` with its cache writes also committed to the resume file. */
  wrap(store: Store): Store;
  close(): void;
  discard(remove: (file: string) => void): void;
}

/** Open (creating) the resume cache for a rebuild with `provider`; null where it is not worth it. */
export function openResumeCache(indexFile: string, provider: string): ResumeCache | null {
  if (provider === 'static') return null;
  const file = resumeCacheFile(indexFile);
  let db: Db;
  try {
    // The one connection factory (db.ts): a file that is not a database is closed there, not
    // leaked. A checkpoint (copy to the file, two fsyncs) runs inside the commit that
    // triggers it, on the main thread: at the default 1,000 pages it took 13–18 ms, at 256
    // pages ≤ 6 ms for the same total (measured with 128-vector commits; docs/benchmarks.md
    // § Main-thread stalls).
    db = openDatabase(file, { loadVec: false, tuning: 'side', walAutocheckpoint: 256 }).db;
  } catch {
    return null; // unwritable or corrupt side file: the rebuild still works, it just cannot resume
  }
  try {
    // No key index: a rebuild embeds each text once, so rows are only appended (a primary
    // key on the hash made every commit rewrite ~100 random index pages, 5× the commit
    // time). A file written with the key by an older Cairn is used as it is.
    db.exec(`CREATE TABLE IF NOT EXISTS embedding_cache (
      provider TEXT NOT NULL, model TEXT NOT NULL, hash TEXT NOT NULL,
      dims INTEGER NOT NULL, embedding BLOB NOT NULL, updated_at INTEGER NOT NULL
    )`);
  } catch {
    db.close(); // a read-only or full disk: closed, not leaked
    return null;
  }
  const ins = db.prepare('INSERT OR IGNORE INTO embedding_cache (provider, model, hash, dims, embedding, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
  const put = db.transaction((provider: string, model: string, entries: readonly { hash: string; vector: Float32Array }[], now: number) => {
    for (const e of entries) ins.run(provider, model, e.hash, e.vector.length, halfBlob(e.vector), now);
  });
  let open = true;
  const close = (): void => {
    if (open) db.close();
    open = false;
  };
  return {
    file,
    wrap: (store) => ({
      ...store,
      cachePut(p, m, entries, now) {
        store.cachePut(p, m, entries, now);
        if (open && entries.length) put(p, m, entries, now);
      },
    }),
    close,
    discard(remove) {
      close();
      remove(file);
    },
  };
}
