/**
 * The engine thread's side of the index's write worker (write-worker.ts): start it, post
 * its calls and await their acknowledgements, and run a sync — a full rebuild or an
 * incremental one — with every write made there (`rebuildInWorker`, `syncInWorker`). The
 * sync itself (sync.ts: listing, reading, chunking, embedding) stays on this thread and
 * sees the worker as an IndexWrites (RemoteWrites). A failure in the worker (an SQLite
 * error, a full disk, the worker dying) rejects the call with the worker's message, SQLite
 * code and error name kept; a failed rebuild's temp file is removed and the old index kept.
 */
import type { Worker } from 'node:worker_threads';
import type { SyncOutcome, SyncWithInput } from './sync';
import { syncWith } from './sync';
import type { FileRow } from './store';
import type { PendingFile } from './sync-write';
import { WRITE_WORKER_MIN_FILES, type CacheEntry, type FileState, type IndexWrites } from './write-side';
import { decodeVectors, encodeBatch, encodeVectors, type WireVectors } from './write-wire';
import { removeDbFiles, swapIn, type RebuildInput } from './reindex';
import { startWriteWorkerThread, type AfterSync, type WriteFault, type WriteRequest } from './write-worker';
import { abortError } from '../util/abort';
import { connectWorker, type WireError, type WorkerClient } from '../util/module-worker';

/** The error a failed call rejects with: the worker's message, its name and SQLite code kept. */
function errorOf(e: WireError): Error {
  if (e.name === 'AbortError') return abortError(undefined, e.message);
  const err = new Error(`the index's write worker failed: ${e.message}`);
  err.name = e.name;
  return e.code ? Object.assign(err, { code: e.code }) : err;
}

/** A running write worker (util/module-worker.ts's protocol). Calls are served in the order they are made. */
export class WriteWorker {
  private pending = 0;

  private constructor(
    private readonly client: WorkerClient<WriteRequest, unknown>,
    private readonly worker: Worker,
  ) {
    // Only now: Node refs a worker's message port again whenever a first 'message' listener
    // is added, even after unref() (connectWorker adds one, which kept every process with an
    // idle worker up). Idle, it never keeps a process alive; a call under way does (call()),
    // as any I/O would.
    worker.unref();
  }

  /**
   * Start a write worker; null when none can start here (no module URL, as in a CommonJS
   * bundle without a registered build, or a failed start): the caller writes on its own thread.
   */
  static async start(fault?: WriteFault): Promise<WriteWorker | null> {
    let worker: Worker | null;
    try {
      worker = await startWriteWorkerThread(fault);
    } catch {
      return null;
    }
    if (!worker) return null;
    // Kept alive while it starts (its ready message is awaited); unref'd once running (constructor).
    try {
      return new WriteWorker(await connectWorker<WriteRequest, unknown>(worker, "the index's write worker", undefined, { errorOf }), worker);
    } catch {
      return null; // it could not start (connectWorker has stopped it)
    }
  }

  /** Post one call; resolves with its result once the worker has made it. */
  call<T>(req: WriteRequest, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.pending++ === 0) this.worker.ref();
    const done = () => {
      if (--this.pending === 0) this.worker.unref();
    };
    const p = this.client.call(req, transfer) as Promise<T>;
    p.then(done, done);
    return p;
  }

  /** Cancel the sync the worker is writing (its running call fails with an AbortError). */
  abort(): void {
    this.client.abort();
  }

  /** Whether the worker has stopped (crashed, or closed). */
  get stopped(): boolean {
    return this.client.stopped;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/**
 * A sync's writes made by the worker. New cache entries are posted without waiting (their
 * failure fails the next call): the worker serves calls in order, so the batch written
 * after them is acknowledged only once they are in.
 */
class RemoteWrites implements IndexWrites {
  private failed: Error | null = null;

  constructor(
    private readonly w: WriteWorker,
    readonly lineVectors: boolean,
  ) {}

  private async call<T>(req: WriteRequest, transfer?: ArrayBuffer[]): Promise<T> {
    if (this.failed) throw this.failed;
    const out = await this.w.call<T>(req, transfer);
    if (this.failed) throw this.failed;
    return out;
  }

  existing(): Promise<FileState[]> {
    return this.call({ op: 'existing' });
  }

  removeFiles(paths: readonly string[]): Promise<void> {
    return paths.length ? this.call({ op: 'removeFiles', paths: [...paths] }) : Promise.resolve();
  }

  begin(bulk: boolean): Promise<void> {
    return this.call({ op: 'begin', bulk });
  }

  async cacheGet(provider: string, model: string, hashes: readonly string[]): Promise<Map<string, Float32Array>> {
    return decodeVectors(await this.call<WireVectors>({ op: 'cacheGet', provider, model, hashes: [...hashes] }));
  }

  async cachePut(provider: string, model: string, entries: readonly CacheEntry[], now: number): Promise<void> {
    if (this.failed) throw this.failed;
    const wire = encodeVectors(entries.map((e) => [e.hash, e.vector] as const));
    this.w.call({ op: 'cachePut', provider, model, entries: wire, now }, [wire.vectors.buf.buffer as ArrayBuffer]).catch((err: Error) => {
      this.failed ??= err;
    });
  }

  writeBatch(files: readonly PendingFile[], byHash: Map<string, Float32Array>, chunks: number): Promise<(string | null | undefined)[]> {
    const batch = encodeBatch(files, byHash, chunks);
    return this.call({ op: 'writeBatch', batch }, [batch.vectors.buf.buffer as ArrayBuffer]);
  }

  touchFiles(rows: readonly FileRow[]): Promise<void> {
    return rows.length ? this.call({ op: 'touchFiles', rows: [...rows] }) : Promise.resolve();
  }

  finish(): Promise<{ files: number; chunks: number }> {
    return this.call({ op: 'finish' });
  }
}

/** Forward `signal`'s abort to the worker while `run` runs. */
async function withAbort<T>(w: WriteWorker, signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
  const onAbort = () => w.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await run();
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * `rebuildIndex` (reindex.ts) with the temp file written by the worker `w`: same temp file,
 * same swap (`beforeSwap` closes the caller's handle first), same clean-up on failure. The
 * unreadable files' list and the cache cap (`after`) are applied to the new file before the
 * swap, so nothing is written on this thread afterwards.
 */
export function rebuildInWorker(w: WriteWorker, input: RebuildInput, after: (outcome: SyncOutcome) => AfterSync, beforeSwap: () => void): Promise<SyncOutcome> {
  return withAbort(w, input.signal, async () => {
    const emb = input.embedder;
    const opened = await w.call<{ lineVectors: boolean; tmp: string }>({
      op: 'openRebuild',
      indexFile: input.indexFile,
      identity: input.identity,
      embedder: emb && { provider: emb.provider, model: emb.model },
      carryCache: input.cacheWrite,
      vectors: emb !== null,
    });
    try {
      const outcome = await syncWith({ ...input, writes: new RemoteWrites(w, opened.lineVectors), bulk: true });
      await w.call({ op: 'finalize', now: input.now(), ...after(outcome) });
      if (input.signal?.aborted) throw abortError(undefined, 'indexing cancelled');
      await swapIn({ backupOrFlush: () => w.call<boolean>({ op: 'backupOrFlush' }), renameIn: () => w.call({ op: 'renameIn' }) }, input.indexFile, beforeSwap);
      return outcome;
    } catch (err) {
      // The worker closes and deletes its temp file; if it cannot (it died), do it here.
      await w.call({ op: 'abandon' }).catch(() => removeDbFiles(opened.tmp));
      throw err;
    }
  });
}

/** What an incremental sync in the worker needs beside the sync's own input. */
export interface WorkerSyncTarget {
  indexFile: string;
  provider: string | null;
  model: string | null;
  vector: 'vec0' | 'fallback' | 'none';
}

/**
 * An incremental sync of the index file with its writes made by the worker `w` on its own
 * connection (WAL: this thread's connection keeps reading the last committed state). `after`
 * (the last sync's time, unreadable files, cache cap) is written there too.
 */
export function syncInWorker(w: WriteWorker, input: Omit<SyncWithInput, 'writes'>, target: WorkerSyncTarget, after: (outcome: SyncOutcome) => AfterSync): Promise<SyncOutcome> {
  return withAbort(w, input.signal, async () => {
    const opened = await w.call<{ lineVectors: boolean }>({ op: 'openIndex', ...target, vectors: input.embedder !== null });
    try {
      const outcome = await syncWith({ ...input, writes: new RemoteWrites(w, opened.lineVectors) });
      await w.call({ op: 'afterSync', ...after(outcome) });
      return outcome;
    } finally {
      await w.call({ op: 'close' }).catch(() => undefined);
    }
  });
}

/**
 * Where an index's syncs write: `on` — always in a write worker; `off` — always on the
 * engine's thread; `auto` (default) — a full rebuild of at least WRITE_WORKER_MIN_FILES
 * files in a worker, which then stays up (idle, unref'd) for the index's later syncs.
 * Wherever no worker can start, on the engine's thread.
 */
export type WriteWorkerMode = 'auto' | 'on' | 'off';

/** One index's write worker, started on demand and kept for its later syncs. */
export class WriterThread {
  private worker: Promise<WriteWorker | null> | null = null;
  private closed = false;

  constructor(
    private readonly mode: WriteWorkerMode,
    private readonly fault?: WriteFault,
  ) {}

  /**
   * The worker for a sync (`full`: a rebuild of `files` files), or null: write on this
   * thread. `possible`: the worker can open the index as this thread does (it loads
   * sqlite-vec with the default loader only).
   */
  async forSync(full: boolean, files: number, possible: boolean): Promise<WriteWorker | null> {
    if (this.closed || !possible || this.mode === 'off') return null;
    const up = this.worker ? await this.worker : null;
    if (up && !up.stopped) return up;
    const wanted = this.mode === 'on' || (full && files >= WRITE_WORKER_MIN_FILES);
    // A worker that could not start is not retried; one that died is replaced.
    if (!wanted || (this.worker && !up)) return null;
    this.worker = WriteWorker.start(this.fault);
    return this.worker;
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = await this.worker;
    this.worker = null;
    await w?.close();
  }
}

