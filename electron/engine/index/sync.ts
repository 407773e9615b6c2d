/**
 * One sync pass over the source files into an open index: find what changed (stat, then
 * content hash), re-chunk only those files, embed cache misses, write each file in one
 * transaction. Work is done in small batches with a yield between them so the event loop
 * (Electron's main thread) never stalls; progress is reported and the AbortSignal honoured
 * between batches. Embedding runs ahead of the writes (embed-jobs.ts), in a worker thread
 * for big runs. A memory file bigger than STREAM_FROM_BYTES is read, chunked and written as
 * a stream (sync-stream.ts), so no file is ever held whole. Every write goes through an
 * IndexWrites (write-side.ts): on this thread (`syncFiles`), or in a worker thread that owns
 * the write connection (`syncWith` + write-worker.ts), the sync then only posting rows.
 */
import type { UnreadableFile } from '../../../shared/types/search';
import type { Embedder } from '../embed/types';
import type { Db } from './db';
import type { SourceFile } from './sources';
import type { ChunkingOptions } from './chunker';
import { sha256 } from './chunker';
import { prepareChunks } from './prepare';
import type { FileRow, Store } from './store';
import { VectorPipeline, type PrestartedWorker, type VectorJob } from './embed-jobs';
import type { PendingFile } from './sync-write';
import { LocalWrites, type IndexWrites } from './write-side';
import { abortError } from '../util/abort';
import { readSource, readVirtual, statSource } from './sync-files';
import { streamFile, streamsFile, type FilePart } from './sync-stream';

export { filesDiffer } from './sync-files';

export interface SyncProgress {
  phase: 'scan' | 'chunk' | 'embed' | 'write' | 'done';
  filesDone: number;
  filesTotal: number;
  chunksDone: number;
  chunksTotal: number;
}

export interface SyncInput {
  db: Db;
  store: Store;
  embedder: Embedder | null;
  files: readonly SourceFile[];
  chunking: ChunkingOptions;
  /** Write new vectors to the embedding cache. */
  cacheWrite: boolean;
  /**
   * The database is private to this sync and empty (a full rebuild's temp file): write it
   * in one transaction. Ignored when it already has files.
   */
  bulk?: boolean;
  /** Embed in a worker thread: see VectorPipelineOptions.worker. */
  embedWorker?: 'auto' | 'wait' | 'off';
  /** A worker started ahead for this sync (memory-index.ts, full rebuilds). */
  prestarted?: PrestartedWorker | null | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: SyncProgress) => void) | undefined;
  now: () => number;
}

/** A sync whose writes go through `writes` (here or in a write worker) instead of `db`/`store`. */
export interface SyncWithInput extends Omit<SyncInput, 'db' | 'store'> {
  writes: IndexWrites;
  /** The sync's yielder (shared with a LocalWrites on this thread, so slices are not doubled). */
  yieldNow?: ((force?: boolean) => Promise<void>) | undefined;
}

export interface SyncOutcome {
  /** Files in the index after the sync. */
  files: number;
  /** Chunks in the index after the sync. */
  chunks: number;
  /** Chunks embedded by the embedder (cache misses). */
  embedded: number;
  /** Paths added, changed or removed. */
  changed: string[];
  /** Of `embedded`, how many a worker thread embedded. */
  embeddedInWorker: number;
  /** Files that could not be read: skipped (their old rows, if any, kept), the rest indexed. */
  unreadable: UnreadableFile[];
}


/** Chunks gathered before embedding and writing (one embed call for async embedders). */
const BATCH_CHUNKS = 96;
/** Longest stretch of synchronous work before yielding to the event loop. */
const SLICE_MS = 8;

/** Returns a function that yields to the event loop once `sliceMs` of work has passed. */
export function createYielder(sliceMs = SLICE_MS): (force?: boolean) => Promise<void> {
  let last = performance.now();
  return async (force = false) => {
    if (force || performance.now() - last >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      last = performance.now();
    }
  };
}

const throwIfAborted = (signal: AbortSignal | undefined): void => {
  if (signal?.aborted) throw abortError(undefined, 'indexing cancelled');
};

/** A batch of files whose vectors are on their way. */
interface Batch {
  files: PendingFile[];
  chunks: number;
  job: VectorJob;
}

/**
 * Bring the index in line with `input.files`: drop the files no longer listed, then one
 * streaming pass (scan each file; embed and write every ~BATCH_CHUNKS changed chunks), then
 * record the files whose content did not change, then the counts. Only a few batches of
 * texts are held in memory, whatever the size of the memory.
 */
export function syncFiles(input: SyncInput): Promise<SyncOutcome> {
  const { db, store, ...rest } = input;
  const yieldNow = createYielder();
  const writes = new LocalWrites({ db, store, vectors: input.embedder !== null, yieldNow, signal: input.signal });
  return syncWith({ ...rest, writes, yieldNow });
}

/** `syncFiles` with its writes made through `input.writes` (a write worker's, write-worker.ts). */
export async function syncWith(input: SyncWithInput): Promise<SyncOutcome> {
  const run = new SyncRun(input);
  try {
    await run.begin();
    for (const src of input.files) await run.scan(src);
    await run.drain();
    await run.touchUnchanged();
    return await run.finish();
  } finally {
    run.close();
  }
}

/** The state of one sync pass, and its steps (in the order syncFiles runs them). */
class SyncRun {
  private readonly yieldNow: (force?: boolean) => Promise<void>;
  private readonly report: (p: SyncProgress) => void;
  private readonly existing = new Map<string, { hash: string; mtime: number; size: number }>();
  /**
   * A private, empty database (a full rebuild's temp file): everything goes in one write
   * transaction — far fewer, bigger FTS segments and no per-file commit — and files are only
   * inserted, never replaced. A failure throws the whole file away anyway.
   */
  private bulk = false;
  private vectors: VectorPipeline | null = null;
  private readonly changed: string[] = [];
  private readonly touched: FileRow[] = [];
  private readonly unreadable: UnreadableFile[] = [];
  private readonly inFlight: Batch[] = [];
  private pending: PendingFile[] = [];
  private pendingChunks = 0;
  private filesDone = 0;
  private chunksDone = 0;
  private chunksSeen = 0;

  constructor(private readonly input: SyncWithInput) {
    this.yieldNow = input.yieldNow ?? createYielder();
    this.report = input.onProgress ?? (() => {});
  }

  private get pipeline(): VectorPipeline {
    if (!this.vectors) throw new Error('internal: sync used before begin');
    return this.vectors;
  }

  private progress(phase: SyncProgress['phase']): void {
    this.report({ phase, filesDone: this.filesDone, filesTotal: this.input.files.length, chunksDone: this.chunksDone, chunksTotal: this.chunksSeen });
  }

  /**
   * Read the index's files rows; drop the files no longer listed (they need no reading);
   * open the bulk transaction (rebuilds); start on a fresh slice of the event loop.
   */
  async begin(): Promise<void> {
    const { input } = this;
    for (const r of await input.writes.existing()) this.existing.set(r.path, r);
    this.bulk = input.bulk === true && this.existing.size === 0;
    this.vectors = new VectorPipeline({
      cache: input.writes,
      embedder: input.embedder,
      cacheWrite: input.cacheWrite,
      signal: input.signal,
      now: input.now,
      expectMany: this.bulk && input.files.length > 0,
      worker: input.embedWorker,
      prestarted: input.prestarted,
    });
    const listed = new Set(input.files.map((f) => f.path));
    const removed = [...this.existing.keys()].filter((p) => !listed.has(p));
    await input.writes.removeFiles(removed);
    this.changed.push(...removed);
    await input.writes.begin(this.bulk);
    // Whatever ran before (listing, opening the database) had its own slice.
    await this.yieldNow(true);
  }

  /**
   * One listed file: stat it, read and hash it only when mtime/size moved, chunk it when the
   * content changed (queued for embedding; a full batch is flushed), else note it unchanged.
   */
  async scan(src: SourceFile): Promise<void> {
    throwIfAborted(this.input.signal);
    this.filesDone++;
    const st = statSource(src);
    if (!st) return; // vanished since listing: handled as removed next time
    const prev = this.existing.get(src.path);
    if (prev && prev.mtime === Math.round(st.mtimeMs) && prev.size === st.size) {
      if (this.filesDone % 256 === 0) {
        this.progress('scan');
        await this.yieldNow();
      }
      return;
    }
    if (streamsFile(src, st.size)) return this.scanStreamed(src, st, prev?.hash);
    const got = src.virtual ? readVirtual(src) : await readSource(src.abs, src.path);
    if ('unreadable' in got) {
      this.unreadable.push(got.unreadable);
      return;
    }
    const { text, lineNumbers } = got;
    const hash = sha256(text);
    const row: FileRow = { path: src.path, source: src.source, hash, mtime: st.mtimeMs, size: st.size };
    if (prev && prev.hash === hash) {
      this.touched.push(row);
      return;
    }
    const chunks = prepareChunks(src, text, st.mtimeMs, this.input.chunking, lineNumbers);
    this.chunksSeen += chunks.length;
    this.pending.push({ file: row, chunks });
    this.pendingChunks += chunks.length;
    if (this.pendingChunks >= BATCH_CHUNKS) await this.flush();
    else await this.yieldNow();
  }

  /**
   * A big memory file or transcript, streamed: each part of a batch's worth of chunks is queued like a
   * file of its own (embedded and written in turn), so only a few batches are held at once.
   */
  private async scanStreamed(src: SourceFile, st: { mtimeMs: number; size: number }, prevHash: string | undefined): Promise<void> {
    let first = true;
    for await (const step of streamFile(src, st, this.input.chunking, prevHash, BATCH_CHUNKS)) {
      if ('unchanged' in step) return void this.touched.push(step.unchanged);
      // Nothing of it queued yet: skipped like an unreadable file, its old rows untouched.
      if (step.failed !== undefined && first) return void this.unreadable.push({ path: src.path, reason: step.failed });
      const part: FilePart = { first, last: step.last, ...(step.failed !== undefined ? { failed: step.failed } : {}) };
      this.chunksSeen += step.chunks.length;
      this.pending.push({ file: step.file, chunks: step.chunks, part });
      this.pendingChunks += step.chunks.length;
      first = false;
      if (this.pendingChunks >= BATCH_CHUNKS) await this.flush();
      else await this.yieldNow();
    }
  }

  /** Send the queued chunks to the embedder; write batches whose vectors are due. */
  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    throwIfAborted(this.input.signal);
    this.progress('embed');
    this.inFlight.push({ files: this.pending, chunks: this.pendingChunks, job: await this.pipeline.start(this.pending.flatMap((p) => p.chunks)) });
    this.pending = [];
    this.pendingChunks = 0;
    await this.yieldNow();
    // In-process embedding is done by the time its vectors are awaited: write right away.
    // With a worker, keep batches queued so it never waits for this thread.
    while (this.inFlight.length > this.pipeline.maxInFlight) await this.write(this.inFlight.shift()!);
  }

  /** Flush the last batch and write every batch still on its way. */
  async drain(): Promise<void> {
    await this.flush();
    while (this.inFlight.length) await this.write(this.inFlight.shift()!);
  }

  /**
   * Write one batch once its vectors are in (the write side commits the bulk transaction
   * every so often).
   */
  private async write(b: Batch): Promise<void> {
    const byHash = await this.pipeline.finish(b.job);
    throwIfAborted(this.input.signal);
    await this.yieldNow();
    const results = await this.input.writes.writeBatch(b.files, byHash, b.chunks);
    b.files.forEach((p, i) => {
      // undefined: a part of a streamed file that is not its last (nothing to report yet).
      const failed = results[i];
      if (failed) this.unreadable.push({ path: p.file.path, reason: failed });
      else if (failed === null) this.changed.push(p.file.path);
    });
    this.chunksDone += b.chunks;
    this.progress('write');
    await this.yieldNow();
  }

  /** Files whose mtime moved but whose content did not: new stamps, no re-chunking. */
  async touchUnchanged(): Promise<void> {
    await this.input.writes.touchFiles(this.touched);
  }

  /** Count files and chunks, record the chunk count, and commit a bulk run. */
  async finish(): Promise<SyncOutcome> {
    const { files, chunks } = await this.input.writes.finish();
    this.progress('done');
    const v = this.pipeline;
    return { files, chunks, embedded: v.embedded, embeddedInWorker: v.embeddedInWorker, changed: this.changed, unreadable: this.unreadable };
  }

  close(): void {
    this.vectors?.close();
  }
}
