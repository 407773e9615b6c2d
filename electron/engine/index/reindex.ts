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
import { createStore } from './store';
import { createLineTables } from './line-vectors';
import { syncFiles, type SyncInput, type SyncOutcome } from './sync';
import { openResumeCache, type ResumeCache } from './resume-cache';
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

/** Page cache of the temp file while it is built (KiB; SQLite's default is 2 MiB). */
const BULK_CACHE_KIB = 32 * 1024;

export interface RebuildInput extends Omit<SyncInput, 'db' | 'store'> {
  indexFile: string;
  identity: IndexIdentity;
  loadVec: ((db: Db) => void) | false | undefined;
}

/**
 * Build a complete index in `<indexFile>.tmp-*`, then (only on success) put it in place:
 * with SQLite's online backup into the existing file — one write transaction committed at
 * the end, so every connection (this process's and others', e.g. the app and `cairn mcp`
 * on the same state dir) sees the old index until the new one is complete, and never a
 * file replaced under it. With no index yet, the temp file is simply renamed.
 * `beforeSwap` runs right before the switch: the caller closes its handle.
 */
export async function rebuildIndex(input: RebuildInput, beforeSwap: () => void): Promise<SyncOutcome> {
  const tmp = `${input.indexFile}.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const opened = openDatabase(tmp, { loadVec: input.identity.vector === 'vec0' ? input.loadVec : false });
  const { db } = opened;
  // A temp file is thrown away on any failure, so it needs no crash safety while it is
  // built: a rollback journal in memory and no fsync per commit (the finished file is
  // fsynced before it is renamed into place; the backup path commits through the target's
  // own journal). A bigger page cache keeps the one long write transaction (`bulk`) from
  // spilling and re-reading b-tree pages.
  db.pragma('journal_mode = MEMORY');
  db.pragma('synchronous = OFF');
  db.pragma(`cache_size = -${BULK_CACHE_KIB}`);
  db.pragma('temp_store = MEMORY');
  let outcome: SyncOutcome;
  let resume: ResumeCache | null = null;
  try {
    // Creating the file (in WAL mode first) and the schema are two synchronous stretches of
    // 10–25 ms each: a yield between them.
    await new Promise<void>((resolve) => setImmediate(resolve));
    createBaseSchema(db);
    if (input.identity.dims && input.identity.vector !== 'none') createVectorTable(db, input.identity.dims, input.identity.vector);
    if (input.identity.dims && input.identity.vector !== 'none' && input.identity.lines) createLineTables(db, input.identity.dims, input.identity.vector);
    // Opening, loading sqlite-vec and creating the schema is one synchronous stretch: let the
    // event loop breathe before the next one.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const emb = input.embedder;
    // With the cache off (`cache.enabled: false`) a rebuild embeds everything again; the
    // old file's cache still holds its chunks' float vectors (store.ts), so it is not carried.
    if (emb && input.cacheWrite && fs.existsSync(input.indexFile)) await carryCache(db, input.indexFile, emb.provider, emb.model, input.signal);
    // Vectors of an earlier rebuild that did not finish (killed, cancelled): resume, not restart.
    resume = emb ? openResumeCache(input.indexFile, emb.provider) : null;
    if (emb && resume) await carryCache(db, resume.file, emb.provider, emb.model, input.signal);
    const base = createStore(db, { provider: input.identity.provider, model: input.identity.model, vectors: input.identity.vector });
    const store = resume ? resume.wrap(base) : base;
    outcome = await syncFiles({ ...input, db, store, bulk: true });
    writeMeta(db, 'identity', JSON.stringify(input.identity));
    writeMeta(db, 'lastSync', new Date(input.now()).toISOString());
    if (input.signal?.aborted) throw abortError(undefined, 'indexing cancelled');
    if (fs.existsSync(input.indexFile)) beforeSwap();
    // The online backup cannot change the page size of a file in WAL mode (an index an older
    // Cairn wrote with 4 KB pages): out of WAL it can, which needs no other connection on it.
    // If another one is open (another process, a KNN worker), the rename below is used.
    const samePages = () => filePageSize(input.indexFile) === filePageSize(tmp);
    if (fs.existsSync(input.indexFile) && (samePages() || leaveWal(input.indexFile))) {
      // Pages are copied in steps (the event loop runs between them) into one transaction
      // on the destination, committed by the last step; a failure leaves it as it was.
      await db.backup(input.indexFile, { progress: () => 64 });
      db.close();
      removeDbFiles(tmp);
      resume?.discard(removeDbFiles);
      return outcome;
    }
    db.close();
    // Flush the new file to disk off the main thread before it becomes the index.
    const fh = await fs.promises.open(tmp, 'r+');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch (err) {
    try {
      db.close();
    } catch {
      // already closed
    }
    removeDbFiles(tmp);
    resume?.close();
    throw err;
  }
  beforeSwap();
  for (const f of [`${input.indexFile}-wal`, `${input.indexFile}-shm`]) fs.rmSync(f, { force: true });
  fs.renameSync(tmp, input.indexFile);
  for (const f of [`${tmp}-wal`, `${tmp}-shm`]) fs.rmSync(f, { force: true });
  resume?.discard(removeDbFiles);
  return outcome;
}

/** Rows copied per step when carrying the cache over (a step stays well under 50 ms). */
const CARRY_STEP = 500;

/** Copy the old index's cached vectors of this provider/model into the new file, in steps. */
async function carryCache(db: Db, oldFile: string, provider: string, model: string, signal?: AbortSignal): Promise<void> {
  try {
    db.prepare('ATTACH DATABASE ? AS old').run(oldFile);
  } catch {
    return; // unreadable old file: start with an empty cache
  }
  try {
    const has = db.prepare("SELECT 1 FROM old.sqlite_master WHERE name = 'embedding_cache'").get();
    if (!has) return;
    const step = db.prepare(
      `INSERT OR IGNORE INTO main.embedding_cache (provider, model, hash, dims, embedding, updated_at)
       SELECT provider, model, hash, dims, embedding, updated_at FROM old.embedding_cache
       WHERE provider = ? AND model = ? AND rowid > ? ORDER BY rowid LIMIT ?`,
    );
    const lastOf = db.prepare(
      'SELECT MAX(rowid) FROM (SELECT rowid FROM old.embedding_cache WHERE provider = ? AND model = ? AND rowid > ? ORDER BY rowid LIMIT ?)',
    ).pluck();
    let after = 0;
    for (;;) {
      if (signal?.aborted) throw abortError(undefined, 'indexing cancelled');
      const last = lastOf.get(provider, model, after, CARRY_STEP) as number | null;
      if (last === null) break;
      step.run(provider, model, after, CARRY_STEP);
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
