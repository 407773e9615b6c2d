/**
 * The static embedder in a worker thread, for big indexing runs: embedding is synchronous
 * CPU work (word lookups and 100-d multiply-adds), so on the main thread it competes with
 * chunking and SQLite writes and stalls the event loop. In a worker it runs on the other
 * core, pipelined with the writes (index/embed-jobs.ts).
 *
 * The worker builds its own embedder with `createStaticEmbedder` from the same models dir
 * and weighting, so its vectors are byte-identical to the in-process ones (checked: the
 * worker reports its embedder id and dims, and a mismatch means no worker). An embedder is
 * offloadable only when whoever created it said how to recreate it (`allowWorker`, called
 * by the embedder factory); anything else embeds in-process as before.
 *
 * Loading: the worker runs this very module (`import.meta.url`): in the CLI bundle, its
 * chunk, imported by a small bootstrap; from the TypeScript sources, the module bundled by
 * esbuild into one script (worker-bundle.ts; without esbuild, imported through tsx). Where there is no
 * module URL (a CommonJS bundle) no worker is started and callers embed in-process.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Embedder } from './types';
import { createStaticEmbedder, type StaticWeighting } from './static';
import { bundledSource } from './worker-bundle';

/** How to recreate an embedder inside a worker. */
export interface WorkerEmbedderSpec {
  kind: 'static';
  modelsDir: string;
  weighting: StaticWeighting;
}

const specs = new WeakMap<Embedder, WorkerEmbedderSpec>();

/** Mark `embedder` as recreatable in a worker from `spec`; returns the embedder. */
export function allowWorker<E extends Embedder>(embedder: E, spec: WorkerEmbedderSpec): E {
  specs.set(embedder, spec);
  return embedder;
}

/** The worker recipe of an embedder, if it has one. */
export function workerSpecOf(embedder: Embedder): WorkerEmbedderSpec | undefined {
  return specs.get(embedder);
}

/** An embedder running in a worker thread. `embed` calls are served in call order. */
export interface EmbedWorker {
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Stop the worker; calls still pending reject. */
  close(): Promise<void>;
}

type ToMain =
  | { type: 'ready'; id: string; dims: number }
  | { type: 'done'; seq: number; vectors: Float32Array }
  | { type: 'failed'; seq?: number; message: string };

/** Marker in workerData: only a worker started here runs the embed loop on import. */
const MARK = 'cairnEmbedWorker';

// The bootstrap runs as a CommonJS script. A .ts module URL needs tsx registered in the
// worker first (a parent's `--import tsx` or `register()` does not reach workers on Node 20).
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
function tsxApi(): string | null {
  try {
    const resolve = (import.meta as { resolve?: (s: string) => string }).resolve;
    if (resolve) return resolve('tsx/esm/api');
    const cjs = createRequire(import.meta.url).resolve('tsx/esm/api');
    return pathToFileURL(cjs.replace(/\.cjs$/, '.mjs')).href;
  } catch {
    return null;
  }
}

/**
 * Start a worker embedding like `expected` (same id and dims). Resolves once its model is
 * loaded; rejects when the worker cannot start or would embed differently.
 */
export async function startEmbedWorker(spec: WorkerEmbedderSpec, expected: { id: string; dims: number }): Promise<EmbedWorker> {
  const url = typeof import.meta.url === 'string' ? import.meta.url : '';
  if (!url.startsWith('file:')) throw new Error('no module URL to start an embed worker from');
  const data = { [MARK]: true, spec };
  const code = url.endsWith('.ts') ? await bundledSource(fileURLToPath(url)) : null;
  const worker = code
    ? new Worker(code, { eval: true, workerData: data })
    : new Worker(BOOTSTRAP, { eval: true, workerData: { ...data, url, tsx: url.endsWith('.ts') ? tsxApi() : null } });
  return handshake(worker, expected);
}

function handshake(worker: Worker, expected: { id: string; dims: number }): Promise<EmbedWorker> {
  const pending = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();
  let seq = 0;
  let dead: Error | null = null;
  const failAll = (err: Error) => {
    dead ??= err;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  return new Promise<EmbedWorker>((resolve, reject) => {
    let started = false;
    const fail = (err: Error) => {
      failAll(err);
      if (!started) reject(err);
      void worker.terminate();
    };
    worker.on('error', (err) => fail(err));
    worker.on('exit', (code) => fail(new Error(`embed worker exited (code ${code})`)));
    worker.on('message', (m: ToMain) => {
      if (m.type === 'ready') {
        if (m.id !== expected.id || m.dims !== expected.dims) {
          fail(new Error(`embed worker loaded ${m.id} (${m.dims} dims), expected ${expected.id} (${expected.dims} dims)`));
          return;
        }
        started = true;
        resolve({
          embed(texts) {
            if (dead) return Promise.reject(dead);
            const id = ++seq;
            return new Promise<Float32Array[]>((res, rej) => {
              pending.set(id, { resolve: res, reject: rej });
              worker.postMessage({ seq: id, texts });
            });
          },
          async close() {
            failAll(new Error('embed worker closed'));
            await worker.terminate();
          },
        });
      } else if (m.type === 'done') {
        const p = pending.get(m.seq);
        pending.delete(m.seq);
        const dims = expected.dims;
        const out: Float32Array[] = [];
        for (let i = 0; i < m.vectors.length; i += dims) out.push(m.vectors.subarray(i, i + dims));
        p?.resolve(out);
      } else if (m.seq !== undefined) {
        const p = pending.get(m.seq);
        pending.delete(m.seq);
        p?.reject(new Error(`embed worker: ${m.message}`));
      } else {
        fail(new Error(`embed worker failed to start: ${m.message}`));
      }
    });
  });
}

/** Common words, repeated: enough tokens for V8 to optimise the embedding loop. */
const WARM_UP = 'the team decided to deploy the new release after the review meeting notes budget travel plan '.repeat(60);

/** Worker side: build the embedder, then embed each batch into one transferred buffer. */
async function serve(spec: WorkerEmbedderSpec): Promise<void> {
  const port = parentPort!;
  // The whole model up front (the worker serves big runs), and one warm-up text so the
  // first real batch does not also pay for compiling the hot loops.
  const emb = await createStaticEmbedder({ modelsDir: spec.modelsDir, weighting: spec.weighting, load: 'full' });
  await emb.embed([WARM_UP]);
  // Batches are served one at a time, in order (`embed` yields inside a batch, so a second
  // message could otherwise interleave with the first).
  let queue = Promise.resolve();
  port.on('message', (m: { seq: number; texts: string[] }) => {
    queue = queue.then(async () => {
      try {
        const vectors = await emb.embed(m.texts);
        const out = new Float32Array(m.texts.length * emb.dims);
        for (let i = 0; i < vectors.length; i++) out.set(vectors[i]!, i * emb.dims);
        port.postMessage({ type: 'done', seq: m.seq, vectors: out } satisfies ToMain, [out.buffer]);
      } catch (err) {
        port.postMessage({ type: 'failed', seq: m.seq, message: (err as Error).message } satisfies ToMain);
      }
    });
  });
  port.postMessage({ type: 'ready', id: emb.id, dims: emb.dims } satisfies ToMain);
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true) {
  serve((workerData as { spec: WorkerEmbedderSpec }).spec).catch((err: Error) => {
    parentPort?.postMessage({ type: 'failed', message: err.stack ?? err.message } satisfies ToMain);
  });
}
