/**
 * Full reindex into a temp database file, swapped in atomically (SPEC §6). The old index
 * stays untouched until the new one is complete and closed; a failed or cancelled rebuild
 * deletes the temp file and leaves the old index as it was. Embeddings for the current
 * model are carried over from the old file's cache, so a chunking change does not re-embed,
 * and from the resume file of an earlier rebuild that did not finish (resume-cache.ts).
 */
import fs from 'node:fs';
import crypto from 'node:crypto';
import { filePageSize, openDatabase, type Db } from './db';
import { createBaseSchema, createVectorTable, writeMeta, type IndexIdentity } from './schema';
import { createStore, type Store } from './store';
import { createLineTables } from './line-vectors';
import { syncFiles, type SyncInput, type SyncOutcome } from './sync';
import { openResumeCache, type ResumeCache } from './resume-cache';
import { cacheKey, embedderId } from './vector-cache';
import { abortError } from '../util/abort';

/** Remove a database file with its WAL and shared-memory companions. */
export function removeDbFiles(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}

/** Switch a database file out of WAL mode; false when another connection has it open. */
function leaveWal(file: string): boolean {
  try {
    const { db } = openDatabase(file, { mustExist: true, busyTimeoutMs: 0, tuning: 'keep', loadVec: false });
    try {
      return db.pragma('journal_mode = DELETE', { simple: true }) === 'delete';
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/**
 * Page cache of the temp file while it is built (KiB; SQLite's default is 2 MiB). 8 MiB, not
 * 32: a 60 MB note's rebuild peaked ~25 MB lower at the same CPU (docs/benchmarks.md, "Issue
 * 40", "200 MB note") — the cache fills and stays full for the whole rebuild.
 */
const BULK_CACHE_KIB = 8 * 1024;

export interface RebuildInput extends Omit<SyncInput, 'db' | 'store'> {
  indexFile: string;
  identity: IndexIdentity;
  loadVec: ((db: Db) => void) | false | undefined;
}

/** What opening a rebuild's temp file needs (plain data: a write worker gets it by message). */
export interface RebuildFileOptions {
  indexFile: string;
  identity: IndexIdentity;
  /** sqlite-vec's loader (undefined: the default one; a worker always uses that). */
  loadVec?: ((db: Db) => void) | false | undefined;
  /** The embedder's provider and model: whose cached vectors are carried over (null: none). */
  embedder: { provider: string; model: string } | null;
  /** Carry the old index's cached vectors (false with `cache.enabled: false`: everything is embedded again). */
  carryCache: boolean;
  signal?: AbortSignal | undefined;
}

/**
 * A full rebuild's temp file `<indexFile>.tmp-*`, from its creation to its swap: open it
 * (schema, the old index's and the resume file's cached vectors carried in), let a sync
 * write it through `db`/`store`, `finalize` its meta, then `backupOrFlush` + `renameIn`
 * (see `swapIn`) — or `abandon` it on any failure. Runs wherever its writes are made: on
 * the engine's thread (`rebuildIndex`) or in a write worker (write-worker.ts).
 */
export class RebuildFile {
  readonly tmp: string;
  readonly db: Db;
  private storeOf: Store | null = null;
  private resume: ResumeCache | null = null;
  private closed = false;

  private constructor(private readonly o: RebuildFileOptions) {
    this.tmp = `${o.indexFile}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
    this.db = openDatabase(this.tmp, { loadVec: o.identity.vector === 'vec0' ? o.loadVec : false }).db;
    // A temp file is thrown away on any failure, so it needs no crash safety while it is
    // built: a rollback journal in memory and no fsync per commit (the finished file is
    // fsynced before it is renamed into place; the backup path commits through the target's
    // own journal). A bigger page cache keeps the one long write transaction (`bulk`) from
    // spilling and re-reading b-tree pages.
    this.db.pragma('journal_mode = MEMORY');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
    this.db.pragma('temp_store = MEMORY');
  }

  /** Create the temp file with its schema and carried-over vectors; on failure it is removed. */
  static async open(o: RebuildFileOptions): Promise<RebuildFile> {
    const rb = new RebuildFile(o);
    try {
      await rb.prepare();
    } catch (err) {
      rb.abandon();
      throw err;
    }
    return rb;
  }

  /** The temp file's statements (with the resume file's cache writes, when there is one). */
  get store(): Store {
    if (!this.storeOf) throw new Error('internal: rebuild file not prepared');
    return this.storeOf;
  }

  private async prepare(): Promise<void> {
    const { db, o } = this;
    const { identity } = o;
    // Creating the file (in WAL mode first) and the schema are two synchronous stretches of
    // 10–25 ms each: a yield between them.
    await new Promise<void>((resolve) => setImmediate(resolve));
    createBaseSchema(db);
    if (identity.dims && identity.vector !== 'none') createVectorTable(db, identity.dims, identity.vector);
    if (identity.dims && identity.vector !== 'none' && identity.lines) createLineTables(db, identity.dims, identity.vector);
    // Opening, loading sqlite-vec and creating the schema is one synchronous stretch: let the
    // event loop breathe before the next one.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const emb = o.embedder;
    // With the cache off (`cache.enabled: false`) a rebuild embeds everything again; the
    // old file's cache still holds its chunks' float vectors (store.ts), so it is not carried.
    if (emb && o.carryCache && fs.existsSync(o.indexFile)) await carryCache(db, o.indexFile, emb.provider, emb.model, o.signal);
    // Vectors of an earlier rebuild that did not finish (killed, cancelled): resume, not restart.
    this.resume = emb ? openResumeCache(o.indexFile, emb.provider) : null;
    if (emb && this.resume) await carryCache(db, this.resume.file, emb.provider, emb.model, o.signal);
    const base = createStore(db, { provider: identity.provider, model: identity.model, vectors: identity.vector });
    this.storeOf = this.resume ? this.resume.wrap(base) : base;
  }

  /** Write the identity, the time of this sync and `meta` (more keys) into the finished file. */
  finalize(now: number, meta: Record<string, string> = {}): void {
    writeMeta(this.db, 'identity', JSON.stringify(this.o.identity));
    writeMeta(this.db, 'lastSync', new Date(now).toISOString());
    // A new file's chunks are numbered afresh: readers holding a copy of the old one's
    // (search/knn-cache.ts) see the generation change and load anew.
    writeMeta(this.db, 'generation', crypto.randomBytes(8).toString('hex'));
    for (const [k, v] of Object.entries(meta)) writeMeta(this.db, k, v);
  }

  /**
   * The first step of the swap, once the caller has closed its handle on the index: copy the
   * temp file into the existing index with SQLite's online backup (true: done, the temp file
   * removed), or — when there is no index yet, or its page size differs and another
   * connection keeps it in WAL mode — close the temp file and flush it to disk (false:
   * `renameIn` next).
   */
  async backupOrFlush(): Promise<boolean> {
    const { indexFile } = this.o;
    // The online backup cannot change the page size of a file in WAL mode (an index an older
    // Cairn wrote with 4 KB pages): out of WAL it can, which needs no other connection on it.
    // If another one is open (another process, a KNN worker), the rename is used.
    const samePages = () => filePageSize(indexFile) === filePageSize(this.tmp);
    if (fs.existsSync(indexFile) && (samePages() || leaveWal(indexFile))) {
      // Pages are copied in steps (the event loop runs between them) into one transaction
      // on the destination, committed by the last step; a failure leaves it as it was.
      await this.db.backup(indexFile, { progress: () => 64 });
      this.close();
      removeDbFiles(this.tmp);
      this.resume?.discard(removeDbFiles);
      return true;
    }
    this.close();
    // Flush the new file to disk (off the main thread) before it becomes the index.
    const fh = await fs.promises.open(this.tmp, 'r+');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
    return false;
  }

  /** The second step (after `backupOrFlush` returned false): rename the flushed temp file into place. */
  renameIn(): void {
    const { indexFile } = this.o;
    for (const f of [`${indexFile}-wal`, `${indexFile}-shm`]) fs.rmSync(f, { force: true });
    fs.renameSync(this.tmp, indexFile);
    for (const f of [`${this.tmp}-wal`, `${this.tmp}-shm`]) fs.rmSync(f, { force: true });
    this.resume?.discard(removeDbFiles);
  }

  /** A failed or cancelled rebuild: close and delete the temp file; the resume file is kept. */
  abandon(): void {
    this.close();
    removeDbFiles(this.tmp);
    this.resume?.close();
  }

  private close(): void {
    if (!this.closed) this.db.close();
    this.closed = true;
  }
}

/** The swap's two steps, wherever they run (a RebuildFile here, or one in a write worker). */
export interface SwapSteps {
  backupOrFlush(): Promise<boolean>;
  renameIn(): void | Promise<void>;
}

/**
 * Put a finished rebuild in place: `beforeSwap` (the caller closes its handle) runs before
 * either step, so the backup copies into a file this process no longer reads from and the
 * rename never replaces a file under an open handle.
 */
export async function swapIn(steps: SwapSteps, indexFile: string, beforeSwap: () => void): Promise<void> {
  if (fs.existsSync(indexFile)) beforeSwap();
  if (await steps.backupOrFlush()) return;
  beforeSwap();
  await steps.renameIn();
}

/**
 * Build a complete index in `<indexFile>.tmp-*` on this thread, then (only on success) put
 * it in place: with SQLite's online backup into the existing file — one write transaction
 * committed at the end, so every connection (this process's and others', e.g. the app and
 * `cairn mcp` on the same state dir) sees the old index until the new one is complete, and
 * never a file replaced under it. With no index yet, the temp file is simply renamed.
 * `beforeSwap` runs right before the switch: the caller closes its handle.
 */
export async function rebuildIndex(input: RebuildInput, beforeSwap: () => void): Promise<SyncOutcome> {
  const emb = input.embedder;
  const rb = await RebuildFile.open({ ...input, carryCache: input.cacheWrite, embedder: emb && { provider: emb.provider, model: emb.model } });
  try {
    const outcome = await syncFiles({ ...input, db: rb.db, store: rb.store, bulk: true });
    rb.finalize(input.now());
    if (input.signal?.aborted) throw abortError(undefined, 'indexing cancelled');
    await swapIn(rb, input.indexFile, beforeSwap);
    return outcome;
  } catch (err) {
    rb.abandon();
    throw err;
  }
}

/** Rows copied per step when carrying the cache over (a step stays well under 50 ms). */
const CARRY_STEP = 500;

/**
 * Copy the old index's (or the resume file's) cached vectors of this provider/model into the
 * new file, in steps. Both cache layouts are read (vector-cache.ts): an older index's text
 * keys become 32-byte ones, its millisecond times seconds; the vector blobs are copied as
 * they are (half-float.ts reads float32 and half alike).
 */
async function carryCache(db: Db, oldFile: string, provider: string, model: string, signal?: AbortSignal): Promise<void> {
  try {
    db.prepare('ATTACH DATABASE ? AS old').run(oldFile);
  } catch {
    return; // unreadable old file: start with an empty cache
  }
  try {
    const cols = db.prepare("SELECT name FROM pragma_table_info('embedding_cache', 'old')").pluck().all() as string[];
    if (cols.length === 0) return;
    const keyed = cols.includes('embedder');
    const from = keyed
      ? (db.prepare('SELECT id FROM old.embedders WHERE provider = ? AND model = ?').pluck().get(provider, model) as number | undefined)
      : 0;
    if (from === undefined) return;
    const to = embedderId(db, provider, model, true);
    db.function('cairn_cache_key', { deterministic: true }, (h: unknown) => cacheKey(String(h)));
    // Rows of the one embedder, in rowid order, a step at a time.
    const rows = keyed ? 'FROM old.embedding_cache WHERE embedder = :from' : 'FROM old.embedding_cache WHERE provider = :provider AND model = :model';
    const step = db.prepare(
      `INSERT OR IGNORE INTO main.embedding_cache (embedder, hash, used, embedding)
       SELECT :to, ${keyed ? 'hash, used' : 'cairn_cache_key(hash), updated_at / 1000'}, embedding ${rows}
       AND rowid > :after ORDER BY rowid LIMIT :n`,
    );
    const lastOf = db.prepare(`SELECT MAX(rowid) FROM (SELECT rowid ${rows} AND rowid > :after ORDER BY rowid LIMIT :n)`).pluck();
    const args = keyed ? { from } : { provider, model };
    let after = 0;
    for (;;) {
      if (signal?.aborted) throw abortError(undefined, 'indexing cancelled');
      const last = lastOf.get({ ...args, after, n: CARRY_STEP }) as number | null;
      if (last === null) break;
      step.run({ ...args, to, after, n: CARRY_STEP });
      after = last;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    // an old layout: nothing to carry
  } finally {
    db.exec('DETACH DATABASE old');
  }
}
