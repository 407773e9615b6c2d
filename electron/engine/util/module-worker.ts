/**
 * Worker threads that run an engine module (given by its `import.meta.url`), in the
 * TypeScript sources and in the CLI's ESM bundle alike, and the small request/response
 * protocol the engine's workers speak (the embed worker, the KNN worker).
 *
 * Starting: a module in the CLI bundle is imported by a tiny CommonJS bootstrap. A `.ts`
 * module (Cairn run from its sources through tsx) is imported after registering tsx in the
 * worker (on Node 20 neither a parent's `--import tsx` nor `register()` reaches a worker),
 * unless the caller can give it as one script (`opts.bundled`: the esbuild bundle of
 * `embed/worker-bundle.ts`, which the embed, KNN and write workers use: it starts faster, and
 * tsx in a worker costs a loader thread and ~15–20 MB of resident memory per worker).
 * Where a module has no URL (the Electron main process is a CommonJS bundle,
 * `import.meta.url` is empty) the worker runs the module's own build registered with
 * `registerWorkerModule`; with neither, no worker starts (`null`) and callers do the work
 * in-process.
 *
 * Protocol — the one every engine worker speaks (the embed, KNN and index write workers):
 * the worker posts `{type: 'ready', ...}` once set up; each call is `{seq, ...request}` (its
 * buffers may be transferred with it) and is answered `{type: 'done', seq, result}` or
 * `{type: 'failed', seq, message, name, code?}` (the error's name and string code kept);
 * `{type: 'failed', message}` without a seq means it could not start; `{abort: true}` without
 * a seq asks the worker to cancel what it is doing. The worker module checks
 * `workerData[mark]` on import to know it is the worker.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';

const BOOTSTRAP = `
const { workerData, parentPort } = require('node:worker_threads');
(async () => {
  if (workerData.tsx) {
    const tsx = await import(workerData.tsx);
    (tsx.register || (tsx.default && tsx.default.register))();
  }
  await import(workerData.url);
})().catch((err) => parentPort.postMessage({ type: 'failed', message: String((err && err.stack) || err) }));
`;

/** URL of tsx's ESM register API (its CommonJS build cannot register hooks in a worker). */
function tsxApi(from: string): string | null {
  try {
    const resolve = (import.meta as { resolve?: (s: string) => string }).resolve;
    if (resolve) return resolve('tsx/esm/api');
    const cjs = createRequire(from).resolve('tsx/esm/api');
    return pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  } catch {
    return null;
  }
}

/** Worker modules built as their own files, by mark (see `registerWorkerModule`). */
const registered = new Map<string, string>();

/**
 * Say where the worker module with `mark` was built as a file of its own (an ES module
 * URL). For hosts whose bundle gives modules no URL: the Electron main process (CommonJS)
 * registers dist/electron/workers/*.mjs at start-up (scripts/build-workers.mjs).
 */
export function registerWorkerModule(mark: string, url: string): void {
  registered.set(mark, url);
}

/**
 * Young generation (MiB) of a worker that streams many short-lived objects through (the embed
 * and write workers of an indexing run): V8's default (~48 MiB: 16 MiB semi-spaces) is
 * filled and kept per thread; 2 MiB made a 60 MB note's rebuild peak ~10–15 MB lower at
 * the same CPU (docs/benchmarks.md, "Issue 40", "200 MB note").
 */
export const STREAMING_WORKER_YOUNG_MB = 2;

/**
 * A worker running the module at `moduleUrl` (else the one registered for `mark`) with
 * `data` (plus `[mark]: true`) as its workerData, or null when there is neither.
 * `opts.bundled` may turn a `.ts` module's path into one CommonJS script to run instead
 * (null: not available). `opts.youngMb`: bound the worker's young generation (MiB).
 */
export async function startModuleWorker(
  moduleUrl: string | undefined,
  mark: string,
  data: Record<string, unknown>,
  opts: { bundled?: (entry: string) => Promise<string | null>; youngMb?: number } = {},
): Promise<Worker | null> {
  const own = typeof moduleUrl === 'string' && moduleUrl.startsWith('file:') ? moduleUrl : null;
  const url = own ?? registered.get(mark) ?? '';
  if (!url.startsWith('file:')) return null;
  const workerData = { ...data, [mark]: true };
  const resourceLimits = opts.youngMb ? { maxYoungGenerationSizeMb: opts.youngMb } : undefined;
  if (url.endsWith('.ts') && opts.bundled) {
    const code = await opts.bundled(fileURLToPath(url));
    if (code) return new Worker(code, { eval: true, workerData, resourceLimits });
  }
  return new Worker(BOOTSTRAP, { eval: true, resourceLimits, workerData: { ...workerData, url, tsx: url.endsWith('.ts') ? tsxApi(url) : null } });
}

/** The main thread's side of a started worker. */
export interface WorkerClient<Req, Res> {
  /** Post one call (moving `transfer`'s buffers with it); resolves with the worker's result. */
  call(request: Req, transfer?: ArrayBuffer[]): Promise<Res>;
  /** Ask the worker to cancel the call it is running (serveWorker's `onAbort`). */
  abort(): void;
  /** Whether the worker has stopped (crashed, exited or closed): every call now rejects. */
  readonly stopped: boolean;
  /** Stop the worker; calls still pending reject. */
  close(): Promise<void>;
}

/** An error as it crosses the thread boundary: its message, name and string code (SQLite's) kept. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
}

type FromWorker<Ready, Res> =
  | ({ type: 'ready' } & Ready)
  | { type: 'done'; seq: number; result: Res }
  | ({ type: 'failed'; seq?: number } & WireError);

/** How connectWorker turns a failed call into the error its promise rejects with. */
export interface ConnectOptions<Ready> {
  /** Refuse what the worker reports when ready (returns why). */
  check?: (ready: Ready) => string | null;
  /** The rejection for a failed call (default: an Error with the worker's name and message). */
  errorOf?: (e: WireError) => Error;
}

/**
 * Wait for `worker`'s ready message, then serve calls. `check` may refuse what the worker
 * reports (returns why); the worker is then stopped and the promise rejects.
 */
export function connectWorker<Req extends object, Res, Ready extends object = object>(
  worker: Worker,
  name: string,
  check: ConnectOptions<Ready>['check'] = () => null,
  opts: Omit<ConnectOptions<Ready>, 'check'> = {},
): Promise<WorkerClient<Req, Res>> {
  const errorOf = opts.errorOf ?? ((e: WireError) => new Error(`${name}: ${e.message}`));
  const pending = new Map<number, { resolve: (r: Res) => void; reject: (e: Error) => void }>();
  let seq = 0;
  let dead: Error | null = null;
  const failAll = (err: Error) => {
    dead ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  return new Promise<WorkerClient<Req, Res>>((resolve, reject) => {
    let started = false;
    const fail = (err: Error) => {
      failAll(err);
      if (!started) reject(err);
      void worker.terminate();
    };
    worker.on('error', (err) => fail(new Error(`${name} crashed: ${err.message}`)));
    worker.on('exit', (code) => fail(new Error(`${name} exited (code ${code})`)));
    worker.on('message', (m: FromWorker<Ready, Res>) => {
      if (m.type === 'ready') {
        const refused = check?.(m);
        if (refused) return fail(new Error(`${name}: ${refused}`));
        started = true;
        resolve({
          call(request, transfer = []) {
            if (dead) return Promise.reject(dead);
            const id = ++seq;
            return new Promise<Res>((res, rej) => {
              pending.set(id, { resolve: res, reject: rej });
              worker.postMessage({ ...request, seq: id }, transfer);
            });
          },
          abort() {
            if (!dead) worker.postMessage({ abort: true });
          },
          get stopped() {
            return dead !== null;
          },
          async close() {
            failAll(new Error(`${name} closed`));
            await worker.terminate();
          },
        });
      } else if (m.type === 'done') {
        pending.get(m.seq)?.resolve(m.result);
        pending.delete(m.seq);
      } else if (m.seq !== undefined) {
        pending.get(m.seq)?.reject(errorOf(m));
        pending.delete(m.seq);
      } else fail(new Error(`${name} failed to start: ${m.message}`));
    });
  });
}

/** `err` as it crosses to the main thread. */
function wireError(err: unknown): WireError {
  const e = err as (Error & { code?: unknown }) | null;
  return { name: e?.name ?? 'Error', message: e?.message ?? String(err), ...(typeof e?.code === 'string' ? { code: e.code } : {}) };
}

/**
 * Worker side: answer each call with `handle` (in arrival order when `serial`), after
 * posting `ready`. Results are transferred when `transfer` names their buffers; an
 * `{abort: true}` message calls `onAbort` at once (not queued behind the running call).
 */
export function serveWorker<Req, Res>(
  ready: object,
  handle: (request: Req) => Res | Promise<Res>,
  opts: { serial?: boolean; transfer?: (result: Res) => ArrayBuffer[]; onAbort?: () => void } = {},
): void {
  const port = parentPort!;
  let queue = Promise.resolve();
  const answer = async (m: Req & { seq: number }) => {
    try {
      const result = await handle(m);
      port.postMessage({ type: 'done', seq: m.seq, result }, opts.transfer?.(result) ?? []);
    } catch (err) {
      port.postMessage({ type: 'failed', seq: m.seq, ...wireError(err) });
    }
  };
  port.on('message', (m: (Req & { seq: number }) | { abort: true }) => {
    // Every call has a seq; the one message without is the abort.
    if (!('seq' in m)) return void opts.onAbort?.();
    if (opts.serial) queue = queue.then(() => answer(m));
    else void answer(m);
  });
  port.postMessage({ type: 'ready', ...ready });
}

/** Worker side: report a failure to start. */
export function reportStartFailure(err: unknown): void {
  parentPort?.postMessage({ type: 'failed', message: (err as Error)?.stack ?? String(err) });
}
