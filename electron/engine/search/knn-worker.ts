/**
 * The vector side's KNN on a second thread, so that a hybrid search runs its two sides at
 * the same time: the keyword side on the caller's thread, the KNN here, on its own read
 * connection to the same index file (WAL: both see the last committed state). The worker
 * answers from its in-memory int8 copy of the vectors (knn-cache.ts: a SIMD scan, ≈ 7 ms at
 * 100k chunks × 384 d, re-scored exactly from disk) once loaded, and from vec0's scan until
 * then — off the sum, and off the Electron main thread, either way.
 *
 * The worker reopens its connection when the index file is replaced (a new inode: a
 * rebuild swapped in by rename). Anything going wrong here is not an error for the user:
 * callers run the same query in-process (`vec0Candidates`, identical results).
 */
import fs from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import { openDatabase, type OpenedDatabase } from '../index/db';
import { bundledSource } from '../embed/worker-bundle';
import { connectWorker, reportStartFailure, serveWorker, startModuleWorker } from '../util/module-worker';
import type { Candidate, CandidateFilter } from './candidates';
import { KnnCache } from './knn-cache';

/** A KNN worker bound to one index file. */
export interface KnnWorker {
  /** The `limit` nearest chunks to `vec` (what `vec0Candidates` returns). */
  query(vec: Float32Array, limit: number, filter: CandidateFilter): Promise<Candidate[]>;
  /** Resolves once the worker's in-memory copy is loaded: whether it answers from it. */
  loaded(): Promise<boolean>;
  /** Stop the worker; pending queries reject. */
  close(): Promise<void>;
}

type KnnRequest = { vec: Float32Array; limit: number; filter: CandidateFilter } | { loaded: true };

/** Young generation of the KNN worker (MiB). */
const KNN_WORKER_YOUNG_MB = 4;

/** workerData marker of the KNN worker (also its key for `registerWorkerModule`). */
export const KNN_WORKER_MARK = 'cairnKnnWorker';
const MARK = KNN_WORKER_MARK;

/**
 * Start a KNN worker on `indexFile`; resolves once it has opened the file with sqlite-vec,
 * rejects when it cannot (no module URL in a CommonJS bundle, sqlite-vec missing, …).
 */
export async function startKnnWorker(indexFile: string): Promise<KnnWorker> {
  // From the sources, the module bundled by esbuild (no tsx and no loader thread of its own
  // in the worker); a small young generation: each query's garbage is a few hundred KB, and
  // V8's default (16 MiB semi-spaces) kept ~28 MB of heap committed in this thread at 100k.
  // 2 MiB cost the vector side ~0.8 ms CPU a query; 4 MiB is at par (docs/benchmarks.md,
  // "bench/search.ts 100k peak RSS (issue 40)").
  const worker = await startModuleWorker(import.meta.url, MARK, { indexFile }, { bundled: bundledSource, youngMb: KNN_WORKER_YOUNG_MB });
  if (!worker) throw new Error('no module URL to start a KNN worker from');
  const client = await connectWorker<KnnRequest, Candidate[] | boolean>(worker, 'KNN worker');
  // Only now: Node refs a worker's port again when its first 'message' listener is added
  // (connectWorker's), even after unref(). Idle, the worker never keeps a process alive; a
  // query under way does, as any I/O would (else a process awaiting one could end mid-search).
  worker.unref();
  let pending = 0;
  const call = async <T>(request: KnnRequest): Promise<T> => {
    if (pending++ === 0) worker.ref();
    try {
      return (await client.call(request)) as T;
    } finally {
      if (--pending === 0) worker.unref();
    }
  };
  return {
    query: (vec, limit, filter) => call<Candidate[]>({ vec, limit, filter }),
    loaded: () => call<boolean>({ loaded: true }),
    close: () => client.close(),
  };
}

/** Index size from which a KNN worker pays for itself (vectors; ≈ 3 ms of scan at 100 d). */
export const KNN_WORKER_MIN_CHUNKS = 20_000;

/**
 * A KNN worker started on demand for one index file: only for an index of at least
 * `minChunks` chunks, and only from the second search on — a process that searches more
 * than once (the app, `cairn serve`, `cairn mcp`) gets it; a one-shot `cairn search` never
 * pays its start-up. Until the worker is ready, and if it cannot start, searches run the
 * KNN in-process as before.
 */
export class LazyKnnWorker {
  private searches = 0;
  private worker: KnnWorker | null = null;
  private starting: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly indexFile: string,
    private readonly minChunks = KNN_WORKER_MIN_CHUNKS,
  ) {}

  /** The KNN function for this search, or undefined (run it in-process). */
  forSearch(chunkCount: number): KnnWorker['query'] | undefined {
    if (this.worker) return (vec, limit, filter) => this.worker!.query(vec, limit, filter);
    this.searches++;
    if (!this.starting && !this.closed && this.searches >= 2 && chunkCount >= this.minChunks) {
      this.starting = startKnnWorker(this.indexFile).then(
        (w) => {
          if (this.closed) void w.close();
          else this.worker = w;
        },
        () => {}, // stays in-process
      );
    }
    return undefined;
  }

  /** Resolves once a start that is under way has finished (for tests and benchmarks). */
  async ready(): Promise<boolean> {
    await this.starting;
    return this.worker !== null;
  }

  /** Resolves once the worker (if any) answers from its in-memory copy (for tests and benchmarks). */
  async loaded(): Promise<boolean> {
    return (await this.ready()) && this.worker!.loaded();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.starting;
    await this.worker?.close();
    this.worker = null;
  }
}

/** Worker side: one read connection and one in-memory copy, both renewed when the file at `indexFile` is replaced. */
function serve(indexFile: string): void {
  let current: { opened: OpenedDatabase; ino: number; cache: KnnCache } | null = null;
  const open = () => {
    const opened = openDatabase(indexFile, { readonly: true });
    if (!opened.vecLoaded) {
      opened.db.close();
      throw new Error(opened.vecError ?? 'sqlite-vec did not load');
    }
    return opened;
  };
  const state = () => {
    const ino = fs.statSync(indexFile).ino;
    if (current?.ino !== ino) {
      current?.cache.close();
      current?.opened.db.close();
      current = null;
      current = { opened: open(), ino, cache: new KnnCache(() => open().db) };
    }
    return current;
  };
  void state().cache.ready(); // start loading the copy now, not at the first query
  serveWorker<KnnRequest, Candidate[] | boolean>({}, (m) => {
    const s = state();
    if ('loaded' in m) return s.cache.ready();
    return s.cache.query(s.opened.db, m.vec, m.limit, m.filter);
  });
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true) {
  try {
    serve((workerData as { indexFile: string }).indexFile);
  } catch (err) {
    reportStartFailure(err);
  }
}
