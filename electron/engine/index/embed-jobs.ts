/**
 * Vectors for the chunks of one sync, as a pipeline of jobs: `start` looks a batch up in
 * the embedding cache and starts embedding the misses without waiting; `finish` (called in
 * job order by the writer) waits for them, checks them and writes them to the cache.
 *
 * For a big run (a full rebuild, or once an incremental sync has queued enough misses) an
 * offloadable embedder (the static one, see embed/embed-worker.ts) runs in a worker thread:
 * embedding then overlaps chunking and SQLite writes on the other core and leaves the event
 * loop. Until the worker is ready, or if it fails, batches are embedded here as before —
 * the vectors are the same either way.
 */
import type { Embedder } from '../embed/types';
import { startEmbedWorker, workerSpecOf, type EmbedWorker } from '../embed/embed-worker';
import type { PreparedChunk } from './prepare';
import type { VectorCache } from './write-side';
import { chunkVectorFromLines, hashedLineUnits } from './line-vectors';
import { abortError } from '../util/abort';

/** Texts per call for an embedder that computes synchronously on this thread. */
const SYNC_EMBED_BATCH = 8;
/** Misses in one incremental sync from which a worker pays for its start-up (~0.1–0.2 s). */
const WORKER_MIN_TEXTS = 256;
/** Batches in flight while the worker embeds: enough to keep it busy while this thread writes. */
const IN_FLIGHT_WORKER = 3;
/** Batches chunked ahead while the worker starts up. */
const IN_FLIGHT_STARTING = 24;
export interface VectorPipelineOptions {
  /** The embedding cache, on the sync's write side (write-side.ts: here or in a write worker). */
  cache: VectorCache;
  embedder: Embedder | null;
  /** Write new vectors to the embedding cache. */
  cacheWrite: boolean;
  signal?: AbortSignal | undefined;
  now: () => number;
  /** Many chunks are coming (a full rebuild): start a worker right away. */
  expectMany: boolean;
  /**
   * `auto` (default): a worker for big runs (batches wait while it starts; in-process if
   * it cannot). `wait`: start one now, even for a small run (tests use it to exercise the
   * worker path). `off`: always in-process.
   */
  worker?: 'auto' | 'wait' | 'off' | undefined;
  /** A worker started ahead for this run (adopted instead of starting one). */
  prestarted?: PrestartedWorker | null | undefined;
}

/** One batch of chunks on its way to vectors. */
export interface VectorJob {
  /** Vectors found in the cache, by body hash. */
  hits: Map<string, Float32Array>;
  /** Misses this job embeds (each hash once across the jobs in flight). */
  own: { hash: string; body: string }[];
  /** Misses already being embedded by an earlier job. */
  borrowed: { hash: string; from: VectorJob }[];
  /** The vectors of `own`, in order. */
  vectors: Promise<Float32Array[]>;
  /** Filled by `finish`: every vector of the job, by body hash. */
  byHash?: Map<string, Float32Array>;
  /** Whether the worker embedded `own`. */
  inWorker?: boolean;
  /** With line vectors: each chunk's line-unit hashes; `finish` sets its `lineVectors`. */
  lines?: { chunk: PreparedChunk; hashes: string[] }[];
}

const cancelled = (): Error => abortError(undefined, 'indexing cancelled');

function launch(emb: Embedder): Promise<EmbedWorker> | null {
  const spec = workerSpecOf(emb);
  return spec ? startEmbedWorker(spec, { id: emb.id, dims: emb.dims }) : null;
}

/**
 * An embed worker started ahead of a full rebuild, handed to that rebuild's pipeline
 * (SyncInput.prestarted): owned by the one sync that started it, never kept in the module.
 */
export class PrestartedWorker {
  private job: Promise<EmbedWorker> | null;

  constructor(job: Promise<EmbedWorker>) {
    job.catch(() => undefined);
    this.job = job;
  }

  /** The worker, for the one pipeline that adopts it; null once taken. */
  take(): Promise<EmbedWorker> | null {
    const job = this.job;
    this.job = null;
    return job;
  }

  /** Close the worker if nothing adopted it (always call when the sync ends). */
  release(): void {
    this.take()?.then((w) => w.close(), () => undefined);
  }
}

/**
 * Start the embed worker for a coming full rebuild now, so it loads while the files are
 * listed and the database is opened; pass it to the rebuild and `release()` it after.
 * Null when the embedder has no worker.
 */
export function prestartEmbedWorker(emb: Embedder | null): PrestartedWorker | null {
  const job = emb ? launch(emb) : null;
  return job ? new PrestartedWorker(job) : null;
}

export class VectorPipeline {
  /** Texts embedded so far (cache misses), and how many of them by the worker. */
  embedded = 0;
  embeddedInWorker = 0;
  private worker: Promise<EmbedWorker | null> | null = null;
  private ready: EmbedWorker | null = null;
  private closed = false;
  private requested = 0;
  /** Hashes being embedded by a job not finished yet. */
  private readonly owner = new Map<string, VectorJob>();

  constructor(private readonly o: VectorPipelineOptions) {
    if (o.worker === 'wait' || (o.expectMany && o.worker !== 'off')) this.startWorker();
  }

  /**
   * Batches a caller may keep in flight before writing the oldest: none when embedding
   * here (its vectors are ready once awaited), a few once the worker runs (so it never
   * waits for this thread), more while it starts up (chunking runs ahead meanwhile).
   */
  get maxInFlight(): number {
    if (this.ready) return IN_FLIGHT_WORKER;
    return this.starting ? IN_FLIGHT_STARTING : 0;
  }

  /** A worker is on its way (not up, not failed). */
  private starting = false;

  private startWorker(): void {
    const emb = this.o.embedder;
    if (!emb || this.worker || this.o.worker === 'off') return;
    const job = this.o.prestarted?.take() ?? launch(emb);
    if (!job) return;
    this.starting = true;
    this.worker = job.then(
      (w) => {
        this.starting = false;
        if (this.closed) {
          void w.close();
          return null;
        }
        this.ready = w;
        return w;
      },
      () => {
        this.starting = false;
        return null; // no worker here (e.g. a CommonJS bundle): embed in-process
      },
    );
  }

  /** Look `chunks` up in the cache and start embedding the misses (does not wait for them). */
  async start(chunks: readonly PreparedChunk[]): Promise<VectorJob> {
    const emb = this.o.embedder;
    const job: VectorJob = { hits: new Map(), own: [], borrowed: [], vectors: Promise.resolve([]) };
    if (!emb || chunks.length === 0) return job;
    // With line vectors a chunk's vector is the mean of its units' (line-vectors.ts): only
    // the units are embedded. Line units are cached, deduplicated and embedded like chunk
    // bodies (the cache key is the text's hash either way).
    const texts: { hash: string; body: string }[] = [];
    if (this.o.cache.lineVectors) {
      job.lines = chunks.map((c) => {
        const units = hashedLineUnits(c.text);
        for (const u of units) texts.push({ hash: u.hash, body: u.text });
        return { chunk: c, hashes: units.map((u) => u.hash) };
      });
    } else for (const c of chunks) texts.push({ hash: c.bodyHash, body: c.body });
    job.hits = await this.o.cache.cacheGet(emb.provider, emb.model, [...new Set(texts.map((t) => t.hash))]);
    const seen = new Set<string>();
    for (const c of texts) {
      const h = c.hash;
      if (job.hits.has(h) || seen.has(h)) continue;
      seen.add(h);
      const from = this.owner.get(h);
      if (from) job.borrowed.push({ hash: h, from });
      else job.own.push({ hash: h, body: c.body });
    }
    for (const m of job.own) this.owner.set(m.hash, job);
    this.requested += job.own.length;
    if (this.requested >= WORKER_MIN_TEXTS) this.startWorker();
    job.vectors = this.embedTexts(job.own.map((m) => m.body), job);
    // Awaited by `finish`; a sync that stops early (abort, error) must not leave it unhandled.
    job.vectors.catch(() => undefined);
    return job;
  }

  private async embedTexts(texts: string[], job: VectorJob): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    // A worker on its way is waited for: embedding here meanwhile would load a second copy
    // of the model and hold up this thread's chunking and writing.
    if (this.starting) await this.worker;
    const w = this.ready;
    if (w) {
      try {
        const out = await w.embed(texts);
        job.inWorker = true;
        return out;
      } catch {
        if (this.o.signal?.aborted) throw cancelled();
        // The worker died: carry on here (same vectors), without it.
        if (this.ready === w) this.ready = null;
        void w.close();
      }
    }
    return this.inProcess(texts);
  }

  private async inProcess(texts: string[]): Promise<Float32Array[]> {
    const emb = this.o.embedder!;
    // The static embedder computes synchronously: small calls with a yield between keep the
    // event loop free. Other embedders are asynchronous (network, llama.cpp threads): one call.
    const step = emb.provider === 'static' ? SYNC_EMBED_BATCH : texts.length;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += step) {
      if (this.o.signal?.aborted) throw cancelled();
      out.push(...(await emb.embed(texts.slice(i, i + step), { signal: this.o.signal })));
      if (step < texts.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return out;
  }

  /**
   * Wait for a job's vectors (call in `start` order), write the new ones to the cache, and
   * return every vector of the job by body hash.
   */
  async finish(job: VectorJob): Promise<Map<string, Float32Array>> {
    const emb = this.o.embedder;
    const byHash = job.hits;
    if (!emb) return (job.byHash = byHash);
    const vectors = await job.vectors;
    if (vectors.length !== job.own.length) {
      throw new Error(`embedder ${emb.id} returned ${vectors.length} vectors for ${job.own.length} texts`);
    }
    const fresh: { hash: string; vector: Float32Array }[] = [];
    job.own.forEach((m, i) => {
      const v = vectors[i]!;
      if (v.length !== emb.dims) throw new Error(`embedder ${emb.id} returned a ${v.length}-dim vector; expected ${emb.dims}`);
      byHash.set(m.hash, v);
      fresh.push({ hash: m.hash, vector: v });
    });
    for (const b of job.borrowed) {
      const v = b.from.byHash?.get(b.hash);
      if (!v) throw new Error(`internal: vector of ${b.hash} not ready (jobs finished out of order)`);
      byHash.set(b.hash, v);
    }
    if (this.o.cacheWrite && fresh.length) await this.o.cache.cachePut(emb.provider, emb.model, fresh, this.o.now());
    // The writer spreads each prepared chunk into its row, so the line vectors go with it;
    // the chunk's own vector (by body hash) is their mean, never written to the cache.
    for (const l of job.lines ?? []) l.chunk.lineVectors = l.hashes.map((h) => byHash.get(h)!);
    for (const l of job.lines ?? []) byHash.set(l.chunk.bodyHash, chunkVectorFromLines(l.chunk.lineVectors!, emb.dims));
    for (const m of job.own) if (this.owner.get(m.hash) === job) this.owner.delete(m.hash);
    this.embedded += job.own.length;
    if (job.inWorker) this.embeddedInWorker += job.own.length;
    return (job.byHash = byHash);
  }

  /** Stop the worker (if any; one still starting is stopped when it is up). */
  close(): void {
    this.closed = true;
    const w = this.ready;
    this.ready = null;
    if (w) void w.close();
  }
}
