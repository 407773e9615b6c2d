/**
 * The static embedder in a worker thread, for big indexing runs: embedding is synchronous
 * CPU work (token lookups and multiply-adds), so on the main thread it competes with
 * chunking and SQLite writes and stalls the event loop. In a worker it runs on the other
 * core, pipelined with the writes (index/embed-jobs.ts).
 *
 * The worker builds its own embedder from the same model file, so its vectors are
 * byte-identical to the in-process ones (checked: the worker reports its embedder id and
 * dims, and a mismatch means no worker). An embedder is
 * offloadable only when whoever created it said how to recreate it (`allowWorker`, called
 * by the embedder factory); anything else embeds in-process as before.
 *
 * Loading: the worker runs this very module (`import.meta.url`): in the CLI bundle, its
 * chunk, imported by a small bootstrap; from the TypeScript sources, the module bundled by
 * esbuild into one script (worker-bundle.ts; without esbuild, imported through tsx). Where there is no
 * module URL (a CommonJS bundle) no worker is started and callers embed in-process.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { connectWorker, reportStartFailure, serveWorker, startModuleWorker, STREAMING_WORKER_YOUNG_MB } from '../util/module-worker';
import type { Embedder } from './types';
import { createPotionEmbedder } from './potion';
import { bundledSource } from './worker-bundle';

/** How to recreate an embedder inside a worker: the potion embedder over its model file. */
export type WorkerEmbedderSpec = { kind: 'potion'; file: string };

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

/** What the worker reports once its model is loaded. */
interface Ready {
  id: string;
  dims: number;
}

/** Marker in workerData: only a worker started here runs the embed loop on import. */
export const EMBED_WORKER_MARK = 'cairnEmbedWorker';
const MARK = EMBED_WORKER_MARK;

/**
 * Start a worker embedding like `expected` (same id and dims). Resolves once its model is
 * loaded; rejects when the worker cannot start or would embed differently.
 */
export async function startEmbedWorker(spec: WorkerEmbedderSpec, expected: Ready): Promise<EmbedWorker> {
  const worker = await startModuleWorker(import.meta.url, MARK, { spec }, { bundled: bundledSource, youngMb: STREAMING_WORKER_YOUNG_MB });
  if (!worker) throw new Error('no module URL to start an embed worker from');
  const client = await connectWorker<{ texts: string[] }, Float32Array, Ready>(worker, 'embed worker', (r) =>
    r.id !== expected.id || r.dims !== expected.dims ? `loaded ${r.id} (${r.dims} dims), expected ${expected.id} (${expected.dims} dims)` : null,
  );
  return {
    async embed(texts) {
      // One transferred buffer per batch, split back into one view per text.
      const flat = await client.call({ texts });
      const out: Float32Array[] = [];
      for (let i = 0; i < flat.length; i += expected.dims) out.push(flat.subarray(i, i + expected.dims));
      return out;
    },
    close: () => client.close(),
  };
}

/** Common words, repeated: enough tokens for V8 to optimise the embedding loop. */
const WARM_UP = 'the team decided to deploy the new release after the review meeting notes budget travel plan '.repeat(60);

/** Worker side: build the embedder, then embed each batch into one transferred buffer. */
async function serve(spec: WorkerEmbedderSpec): Promise<void> {
  // The whole model up front (the worker serves big runs), and one warm-up text so the
  // first real batch does not also pay for compiling the hot loops.
  const emb = await createPotionEmbedder({ file: spec.file });
  await emb.embed([WARM_UP]);
  // Batches are served one at a time, in order (`embed` yields inside a batch, so a second
  // message could otherwise interleave with the first).
  serveWorker<{ texts: string[] }, Float32Array>(
    { id: emb.id, dims: emb.dims } satisfies Ready,
    async (m) => {
      const vectors = await emb.embed(m.texts);
      const out = new Float32Array(m.texts.length * emb.dims);
      for (let i = 0; i < vectors.length; i++) out.set(vectors[i]!, i * emb.dims);
      return out;
    },
    { serial: true, transfer: (out) => [out.buffer as ArrayBuffer] },
  );
}

if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK] === true) {
  serve((workerData as { spec: WorkerEmbedderSpec }).spec).catch(reportStartFailure);
}
