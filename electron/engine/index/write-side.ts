/**
 * The write side of a sync, behind one interface (IndexWrites) so that it can run on the
 * engine's thread (LocalWrites, here) or in a worker thread that owns the index's write
 * connection (write-worker.ts, which runs this same LocalWrites on its own connection). The
 * sync (sync.ts) reads, chunks and embeds; every SQLite write — the files' rows (through
 * sync-write.ts and store.ts), the embedding cache, the bulk rebuild's commits and FTS5
 * merges — goes through here. Everything is async: a worker answers by message.
 */
import type { Db } from './db';
import { pruneEmbeddingCache, type FileRow, type Store } from './store';
import { readIdentity } from './schema';
import { mergeFts, pauseFtsMerging, resumeFtsMerging } from './bulk-fts';
import { BULK_COMMIT_CHUNKS, FileWriter, type PendingFile } from './sync-write';

/** What the index knows of a file (its files row). */
export interface FileState {
  path: string;
  hash: string;
  mtime: number;
  size: number;
}

/** One new vector for the embedding cache. */
export interface CacheEntry {
  hash: string;
  vector: Float32Array;
}

/** What the vector pipeline (embed-jobs.ts) needs: the embedding cache. */
export interface VectorCache {
  /** The index keeps line vectors (line-vectors.ts). */
  readonly lineVectors: boolean;
  cacheGet(provider: string, model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  cachePut(provider: string, model: string, entries: readonly CacheEntry[], now: number): Promise<void>;
}

/**
 * Every write of one sync pass, in the order the sync makes them: `existing`, `removeFiles`,
 * `begin`, then `cacheGet`/`cachePut`/`writeBatch` per batch, `touchFiles`, `finish`.
 */
export interface IndexWrites extends VectorCache {
  /** The files rows of the index now. */
  existing(): Promise<FileState[]>;
  /** Delete these files' chunks and rows (one transaction). */
  removeFiles(paths: readonly string[]): Promise<void>;
  /** Start writing; `bulk`: a private empty file (a rebuild's temp), written in one transaction. */
  begin(bulk: boolean): Promise<void>;
  /**
   * Write a batch of files (or streamed parts) whose vectors are in `byHash`; per file why it
   * failed, null when written, undefined for a streamed part before its last. In bulk mode the
   * transaction is committed (after an FTS5 merge) once enough chunks have gone in.
   */
  writeBatch(files: readonly PendingFile[], byHash: Map<string, Float32Array>, chunks: number): Promise<(string | null | undefined)[]>;
  /** Files whose content did not change: new mtime/size. */
  touchFiles(rows: readonly FileRow[]): Promise<void>;
  /** Record the chunk count, commit a bulk run; the index's file and chunk counts. */
  finish(): Promise<{ files: number; chunks: number }>;
}

/** What LocalWrites needs: the connection, its statements, and the sync's pacing. */
export interface LocalWritesOptions {
  db: Db;
  store: Store;
  /** Vectors are stored (an embedder is set). */
  vectors: boolean;
  /** Yields to the event loop once its time slice is used (sync.ts createYielder). */
  yieldNow: (force?: boolean) => Promise<void>;
  signal?: AbortSignal | undefined;
}

/**
 * Vectors written to the embedding cache (and the resume file) per step between yields: a
 * batch with line vectors has ~700 new vectors, ≈ 10 ms of inserts plus the resume file's
 * commit in one piece otherwise — several times longer on a loaded machine.
 */
const CACHE_PUT_STEP = 128;

/** The write side on the connection it is given (the engine's, or a write worker's own). */
export class LocalWrites implements IndexWrites {
  private writer: FileWriter | null = null;
  private bulk = false;
  private uncommitted = 0;

  constructor(private readonly o: LocalWritesOptions) {}

  get lineVectors(): boolean {
    return this.o.store.lineVectors;
  }

  async existing(): Promise<FileState[]> {
    return this.o.db.prepare('SELECT path, hash, mtime, size FROM files').all() as FileState[];
  }

  async removeFiles(paths: readonly string[]): Promise<void> {
    if (!paths.length) return;
    const { db, store } = this.o;
    db.transaction(() => {
      for (const p of paths) store.deleteFile(p);
    })();
  }

  async begin(bulk: boolean): Promise<void> {
    const { db, store, vectors, yieldNow, signal } = this.o;
    this.bulk = bulk;
    this.writer = new FileWriter({ db, store, bulk, vectors, yieldNow, signal });
    if (bulk) {
      db.exec('BEGIN');
      pauseFtsMerging(db);
    }
  }

  async cacheGet(provider: string, model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    return this.o.store.cacheGet(provider, model, hashes);
  }

  /** In steps of CACHE_PUT_STEP, yielding between them. */
  async cachePut(provider: string, model: string, entries: readonly CacheEntry[], now: number): Promise<void> {
    const { db, store } = this.o;
    for (let i = 0; i < entries.length; i += CACHE_PUT_STEP) {
      const put = () => store.cachePut(provider, model, entries.slice(i, i + CACHE_PUT_STEP), now);
      // Inside the caller's open transaction (a bulk rebuild) a nested one would only add a
      // savepoint and its sub-journal.
      if (db.inTransaction) put();
      else db.transaction(put)();
      await this.o.yieldNow();
    }
  }

  async writeBatch(files: readonly PendingFile[], byHash: Map<string, Float32Array>, chunks: number): Promise<(string | null | undefined)[]> {
    const writer = this.writer;
    if (!writer) throw new Error('internal: writeBatch before begin');
    const out: (string | null | undefined)[] = [];
    for (const p of files) {
      out.push(await writer.write(p, byHash));
      await this.o.yieldNow();
    }
    // Not while a streamed file's savepoint is open: a COMMIT would end it.
    if (this.bulk && (this.uncommitted += chunks) >= BULK_COMMIT_CHUNKS && !writer.midFile) {
      await mergeFts(this.o.db, this.o.yieldNow, this.o.signal);
      await this.o.yieldNow(true);
      this.o.db.exec('COMMIT');
      this.o.db.exec('BEGIN');
      this.uncommitted = 0;
    }
    return out;
  }

  async touchFiles(rows: readonly FileRow[]): Promise<void> {
    if (!rows.length) return;
    const { db, store } = this.o;
    db.transaction(() => {
      for (const t of rows) store.touchFile(t);
    })();
  }

  async finish(): Promise<{ files: number; chunks: number }> {
    const { db } = this.o;
    const files = (db.prepare('SELECT COUNT(*) FROM files').pluck().get() as number) ?? 0;
    const chunks = (db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number) ?? 0;
    db.prepare("INSERT INTO meta(key, value) VALUES ('chunkCount', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(chunks));
    if (this.bulk) {
      // The chunks are committed before the whole merge, and each merge step commits on its
      // own: the temp file's rollback journal is in memory (reindex.ts), and one transaction
      // around the merge kept the old image of every FTS page it rewrote there: the rebuild's
      // peak RSS at 100k chunks 508 → 386 MB (docs/benchmarks.md, "Issue 40").
      db.exec('COMMIT');
      await mergeFts(db, this.o.yieldNow, this.o.signal, true);
      resumeFtsMerging(db);
      await this.o.yieldNow(true);
    }
    return { files, chunks };
  }
}

/**
 * Files from which a full rebuild pays for a write worker's start-up (write-client.ts; ≈ 0.1 s
 * of the worker's own CPU from a bundle, 0.3–0.5 s through tsx): a state dir of a few notes
 * is rebuilt in less.
 */
export const WRITE_WORKER_MIN_FILES = 100;

/**
 * Keep the embedding cache under `max` entries (the oldest go first; 0 keeps all), never an
 * entry a chunk of the index needs for the embedder in its identity (store.ts).
 */
export function pruneIndexCache(db: Db, max: number): void {
  if (!max) return;
  const id = readIdentity(db);
  pruneEmbeddingCache(db, max, { provider: id?.provider ?? null, model: id?.model ?? null });
}
