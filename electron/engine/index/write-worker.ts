/**
 * The index's write worker: a worker thread that owns the write connection of one sync —
 * a full rebuild's temp file, or the index file itself for an incremental sync — and makes
 * every SQLite write of it (the files' rows through store.ts, the embedding cache and the
 * rebuild's resume file, the bulk transaction's commits, FTS5 merges, the swap's backup or
 * flush). SQLite work that waited on the disk (a commit's or checkpoint's fsync, 60–130 ms at
 * load 4–8) or ran long (a 512-chunk COMMIT) stalled the engine's event loop; here it stalls
 * nobody, and the engine's own read connection answers searches meanwhile.
 *
 * The worker runs the same plain functions the engine thread runs without it (LocalWrites,
 * RebuildFile): the engine thread reads, chunks and embeds, posts each batch's rows with
 * their vectors (one transferred buffer, write-wire.ts) and awaits the acknowledgement. The
 * client is write-client.ts. Loading and the call protocol are the other workers'
 * (util/module-worker.ts): this module's own URL in the sources and the CLI bundle, its own
 * build in the Electron app; calls served in order, `abort` out of band.
 */
import fs from 'node:fs';
import os from 'node:os';
import { isMainThread, workerData, type Worker } from 'node:worker_threads';
import { openDatabase, type Db } from './db';
import { writeMeta, type IndexIdentity } from './schema';
import { createStore, type FileRow, type Store } from './store';
import { RebuildFile } from './reindex';
import { LocalWrites, pruneIndexCache } from './write-side';
import { decodeBatch, decodeVectors, encodeVectors, type WireBatch, type WireVectors } from './write-wire';
import { abortError } from '../util/abort';
import { bundledSource } from '../embed/worker-bundle';
import { reportStartFailure, serveWorker, startModuleWorker, STREAMING_WORKER_YOUNG_MB } from '../util/module-worker';

/** workerData marker of the write worker (also its key for `registerWorkerModule`). */
export const WRITE_WORKER_MARK = 'cairnWriteWorker';

/**
 * Trouble the worker makes on purpose (a test seam, given at start), at the `nth` call (1 =
 * the first) of `op`: with `hold`, the worker thread blocks there — as on a long fsync —
 * after setting `hold[1]` to 1, until `hold[0]` is set to 1 (both Int32 slots of the shared
 * buffer, notified); with `message`, the call then throws an SQLite I/O error with it, as a
 * full or failing disk would.
 */
export interface WriteFault {
  op: WriteRequest['op'];
  nth?: number;
  message?: string;
  hold?: SharedArrayBuffer;
}

/** Block this thread at a fault's `hold` until the test lets it go. */
function holdAt(buf: SharedArrayBuffer): void {
  const a = new Int32Array(buf);
  Atomics.store(a, 1, 1);
  Atomics.notify(a, 1);
  Atomics.wait(a, 0, 0);
}

/** Meta written with the sync's last step, and the embedding cache's cap (0: none). */
export interface AfterSync {
  meta: Record<string, string>;
  pruneMax: number;
}

/** The calls the worker serves, one at a time, in the order they are posted. */
export type WriteRequest =
  | { op: 'openRebuild'; indexFile: string; identity: IndexIdentity; embedder: { provider: string; model: string } | null; carryCache: boolean; vectors: boolean }
  | { op: 'openIndex'; indexFile: string; provider: string | null; model: string | null; vector: 'vec0' | 'fallback' | 'none'; vectors: boolean }
  | { op: 'existing' }
  | { op: 'removeFiles'; paths: string[] }
  | { op: 'begin'; bulk: boolean }
  | { op: 'cacheGet'; provider: string; model: string; hashes: string[] }
  | { op: 'cachePut'; provider: string; model: string; entries: WireVectors; now: number }
  | { op: 'writeBatch'; batch: WireBatch }
  | { op: 'touchFiles'; rows: FileRow[] }
  | { op: 'finish' }
  | ({ op: 'finalize'; now: number } & AfterSync)
  | ({ op: 'afterSync' } & AfterSync)
  | { op: 'backupOrFlush' }
  | { op: 'renameIn' }
  | { op: 'abandon' }
  | { op: 'close' };

/**
 * Start a write worker thread running this module (its own URL, or the build registered for
 * WRITE_WORKER_MARK); null where there is neither. write-client.ts speaks to it.
 */
export function startWriteWorkerThread(fault?: WriteFault): Promise<Worker | null> {
  return startModuleWorker(import.meta.url, WRITE_WORKER_MARK, fault ? { fault } : {}, { bundled: bundledSource, youngMb: STREAMING_WORKER_YOUNG_MB });
}

/** A yielder for the worker's own event loop: lets an `abort` message in during a long write. */
function workerYielder(sliceMs = 50): (force?: boolean) => Promise<void> {
  let last = performance.now();
  return async (force = false) => {
    if (force || performance.now() - last >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      last = performance.now();
    }
  };
}

/** One sync's connection in the worker. */
interface Session {
  db: Db;
  writes: LocalWrites;
  rebuild: RebuildFile | null;
}

/** The worker's state: the open sync's connection, its cancel switch, the calls made so far. */
class WriterState {
  private session: Session | null = null;
  controller = new AbortController();
  private readonly calls = new Map<string, number>();

  constructor(private readonly fault: WriteFault | null) {}

  private current(): Session {
    if (!this.session) throw new Error('internal: no sync is open in the write worker');
    return this.session;
  }

  private newWrites(db: Db, store: Store, vectors: boolean): LocalWrites {
    return new LocalWrites({ db, store, vectors, yieldNow: workerYielder(), signal: this.controller.signal });
  }

  /** Make one call; its result (a cache lookup's answer is WireVectors, its buffer transferred). */
  async handle(m: WriteRequest): Promise<unknown> {
    const n = (this.calls.get(m.op) ?? 0) + 1;
    this.calls.set(m.op, n);
    if (this.fault && this.fault.op === m.op && (this.fault.nth ?? 1) === n) {
      if (this.fault.hold) holdAt(this.fault.hold);
      if (this.fault.message !== undefined) throw Object.assign(new Error(this.fault.message), { code: 'SQLITE_IOERR' });
    }
    switch (m.op) {
      case 'openRebuild': {
        this.controller = new AbortController();
        const rb = await RebuildFile.open({ indexFile: m.indexFile, identity: m.identity, embedder: m.embedder, carryCache: m.carryCache, signal: this.controller.signal });
        this.session = { db: rb.db, writes: this.newWrites(rb.db, rb.store, m.vectors), rebuild: rb };
        return { lineVectors: rb.store.lineVectors, tmp: rb.tmp };
      }
      case 'openIndex': {
        this.controller = new AbortController();
        const opened = openDatabase(m.indexFile, { mustExist: true, loadVec: m.vector === 'vec0' ? undefined : false });
        if (m.vector === 'vec0' && !opened.vecLoaded) {
          opened.db.close();
          throw new Error(opened.vecError ?? 'sqlite-vec did not load in the write worker');
        }
        const store = createStore(opened.db, { provider: m.provider, model: m.model, vectors: m.vector });
        this.session = { db: opened.db, writes: this.newWrites(opened.db, store, m.vectors), rebuild: null };
        return { lineVectors: store.lineVectors };
      }
      case 'existing':
        return await this.current().writes.existing();
      case 'removeFiles':
        return await this.current().writes.removeFiles(m.paths);
      case 'begin':
        return await this.current().writes.begin(m.bulk);
      case 'cacheGet': {
        const found = await this.current().writes.cacheGet(m.provider, m.model, m.hashes);
        return encodeVectors([...found]);
      }
      case 'cachePut': {
        const entries = [...decodeVectors(m.entries)].map(([hash, vector]) => ({ hash, vector }));
        return await this.current().writes.cachePut(m.provider, m.model, entries, m.now);
      }
      case 'writeBatch': {
        if (this.controller.signal.aborted) throw abortError(undefined, 'indexing cancelled');
        const b = decodeBatch(m.batch);
        return await this.current().writes.writeBatch(b.files, b.byHash, b.chunks);
      }
      case 'touchFiles':
        return await this.current().writes.touchFiles(m.rows);
      case 'finish':
        return await this.current().writes.finish();
      case 'finalize': {
        const s = this.current();
        s.rebuild!.finalize(m.now, m.meta);
        pruneIndexCache(s.db, m.pruneMax);
        return null;
      }
      case 'afterSync': {
        const { db } = this.current();
        for (const [k, v] of Object.entries(m.meta)) writeMeta(db, k, v);
        pruneIndexCache(db, m.pruneMax);
        return null;
      }
      case 'backupOrFlush': {
        const done = await this.current().rebuild!.backupOrFlush();
        if (done) this.session = null; // the backup closed the temp file: nothing left to write there
        return done;
      }
      case 'renameIn':
        this.current().rebuild!.renameIn();
        this.session = null;
        return null;
      case 'abandon':
        this.session?.rebuild?.abandon();
        this.session = null;
        return null;
      case 'close':
        if (this.session && !this.session.rebuild) this.session.db.close();
        this.session = null;
        return null;
    }
  }
}

/**
 * The worker thread's nice value on Linux: when it and the engine thread want the same core,
 * the engine thread (nice 0) gets ~3× the worker's share, so a search or the window is not
 * queued behind a write; an idle core still runs the worker at full speed.
 */
const WORKER_NICE = 5;

/** Lower this thread's priority (Linux: a thread's own nice value, set by its id); best effort. */
function lowerPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0 && tid !== process.pid) os.setPriority(tid, Math.max(os.getPriority(tid), WORKER_NICE));
  } catch {
    // not allowed or not there: the worker runs at the engine's priority
  }
}

/** A cache lookup's answer, whose one buffer is moved rather than copied. */
const isWireVectors = (r: unknown): r is WireVectors => typeof r === 'object' && r !== null && 'hashes' in r && 'vectors' in r;

/** Worker side: serve WriteRequests in order; an abort cancels the running sync. */
function serve(fault: WriteFault | null): void {
  lowerPriority();
  const state = new WriterState(fault);
  serveWorker<WriteRequest, unknown>({}, (m) => state.handle(m), {
    serial: true,
    transfer: (r) => (isWireVectors(r) ? [r.vectors.buf.buffer as ArrayBuffer] : []),
    onAbort: () => state.controller.abort(),
  });
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[WRITE_WORKER_MARK] === true) {
  try {
    serve(((workerData as { fault?: WriteFault }).fault ?? null) as WriteFault | null);
  } catch (err) {
    reportStartFailure(err);
  }
}
