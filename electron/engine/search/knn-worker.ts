/**
 * The vector side's vec0 KNN on a second thread, so that a hybrid search runs its two
 * sides at the same time: the keyword side on the caller's thread, the KNN here, on its own
 * read connection to the same index file (WAL: both see the last committed state). A vec0
 * KNN is an exact scan of every stored vector (≈ 16 ms CPU at 100k chunks × 100 d), so on a
 * big index this takes it off the sum — and off the Electron main thread.
 *
 * The worker reopens its connection when the index file is replaced (a new inode: a
 * rebuild swapped in by rename). Anything going wrong here is not an error for the user:
 * callers run the same query in-process (`vec0Candidates`, identical results).
 */
import fs from 'node:fs';
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { openDatabase, type OpenedDatabase } from '../index/db';
import { startModuleWorker } from '../util/module-worker';
import { vec0Candidates, type Candidate, type CandidateFilter } from './candidates';

/** A KNN worker bound to one index file. */
export interface KnnWorker {
  /** The `limit` nearest chunks to `vec` (what `vec0Candidates` returns). */
  query(vec: Float32Array, limit: number, filter: CandidateFilter): Promise<Candidate[]>;
  /** Stop the worker; pending queries reject. */
  close(): Promise<void>;
}

type ToMain = { type: 'ready' } | { type: 'done'; seq: number; rows: Candidate[] } | { type: 'failed'; seq?: number; message: string };
interface ToWorker {
  seq: number;
  vec: Float32Array;
  limit: number;
  filter: CandidateFilter;
}

const MARK = 'cairnKnnWorker';

/**
 * Start a KNN worker on `indexFile`; resolves once it has opened the file with sqlite-vec,
 * rejects when it cannot (no module URL in a CommonJS bundle, sqlite-vec missing, …).
 */
export function startKnnWorker(indexFile: string): Promise<KnnWorker> {
  let worker: Worker | null;
  try {
    worker = startModuleWorker(import.meta.url, MARK, { indexFile });
  } catch (err) {
    return Promise.reject(err as Error);
  }
  if (!worker) return Promise.reject(new Error('no module URL to start a KNN worker from'));
  const w = worker;
  w.unref(); // never keeps a process alive on its own
  const pending = new Map<number, { resolve: (r: Candidate[]) => void; reject: (e: Error) => void }>();
  let seq = 0;
  let dead: Error | null = null;
  const failAll = (err: Error) => {
    dead ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  return new Promise<KnnWorker>((resolve, reject) => {
    let started = false;
    const fail = (err: Error) => {
      failAll(err);
      if (!started) reject(err);
      void w.terminate();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`KNN worker exited (code ${code})`)));
    w.on('message', (m: ToMain) => {
      if (m.type === 'ready') {
        started = true;
        resolve({
          query(vec, limit, filter) {
            if (dead) return Promise.reject(dead);
            const id = ++seq;
            return new Promise<Candidate[]>((res, rej) => {
              pending.set(id, { resolve: res, reject: rej });
              w.postMessage({ seq: id, vec, limit, filter } satisfies ToWorker);
            });
          },
          async close() {
            failAll(new Error('KNN worker closed'));
            await w.terminate();
          },
        });
      } else if (m.type === 'done') {
        pending.get(m.seq)?.resolve(m.rows);
        pending.delete(m.seq);
      } else if (m.seq !== undefined) {
        pending.get(m.seq)?.reject(new Error(`KNN worker: ${m.message}`));
        pending.delete(m.seq);
      } else fail(new Error(`KNN worker failed to start: ${m.message}`));
    });
  });
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

  async close(): Promise<void> {
    this.closed = true;
    await this.starting;
    await this.worker?.close();
    this.worker = null;
  }
}

/** Worker side: one read connection, reopened when the file at `indexFile` is replaced. */
function serve(indexFile: string): void {
  const port = parentPort!;
  let current: { opened: OpenedDatabase; ino: number } | null = null;
  const db = () => {
    const ino = fs.statSync(indexFile).ino;
    if (current?.ino !== ino) {
      current?.opened.db.close();
      current = null;
      const opened = openDatabase(indexFile, { readonly: true });
      if (!opened.vecLoaded) {
        opened.db.close();
        throw new Error(opened.vecError ?? 'sqlite-vec did not load');
      }
      current = { opened, ino };
    }
    return current.opened.db;
  };
  db();
  port.on('message', (m: ToWorker) => {
    try {
      port.postMessage({ type: 'done', seq: m.seq, rows: vec0Candidates(db(), m.vec, m.limit, m.filter) } satisfies ToMain);
    } catch (err) {
      port.postMessage({ type: 'failed', seq: m.seq, message: (err as Error).message } satisfies ToMain);
    }
  });
  port.postMessage({ type: 'ready' } satisfies ToMain);
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true) {
  try {
    serve((workerData as { indexFile: string }).indexFile);
  } catch (err) {
    parentPort?.postMessage({ type: 'failed', message: (err as Error).stack ?? (err as Error).message } satisfies ToMain);
  }
}
