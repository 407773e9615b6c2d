/**
 * One sync pass over the source files into an open index: find what changed (stat, then
 * content hash), re-chunk only those files, embed cache misses, write each file in one
 * transaction. Work is done in small batches with a yield between them so the event loop
 * (Electron's main thread) never stalls; progress is reported and the AbortSignal honoured
 * between batches. Embedding runs ahead of the writes (embed-jobs.ts), in a worker thread
 * for big runs. A memory file bigger than STREAM_FROM_BYTES is read, chunked and written as
 * a stream (sync-stream.ts), so no file is ever held whole; writing is sync-write.ts.
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
import { mergeFts, pauseFtsMerging, resumeFtsMerging } from './bulk-fts';
import { BULK_COMMIT_CHUNKS, FileWriter, type PendingFile } from './sync-write';
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
export async function syncFiles(input: SyncInput): Promise<SyncOutcome> {
  const run = new SyncRun(input);
  try {
    run.removeGone();
    await run.begin();
    for (const src of input.files) await run.scan(src);
    await run.drain();
    run.touchUnchanged();
    return await run.finish();
  } finally {
    run.close();
  }
}

/** The state of one sync pass, and its steps (in the order syncFiles runs them). */
class SyncRun {
  private readonly yieldNow = createYielder();
  private readonly report: (p: SyncProgress) => void;
  private readonly existing = new Map<string, { hash: string; mtime: number; size: number }>();
  /**
   * A private, empty database (a full rebuild's temp file): everything goes in one write
   * transaction — far fewer, bigger FTS segments and no per-file commit — and files are only
   * inserted, never replaced. A failure throws the whole file away anyway.
   */
  private readonly bulk: boolean;
  private readonly vectors: VectorPipeline;
  private readonly changed: string[] = [];
  private readonly touched: FileRow[] = [];
  private readonly unreadable: UnreadableFile[] = [];
  private readonly inFlight: Batch[] = [];
  private pending: PendingFile[] = [];
  private pendingChunks = 0;
  private filesDone = 0;
  private chunksDone = 0;
  private chunksSeen = 0;
  private uncommitted = 0;
  /** Writes each file (or streamed part) once its vectors are in. */
  private readonly writer: FileWriter;

  constructor(private readonly input: SyncInput) {
    const { db, store } = input;
    this.report = input.onProgress ?? (() => {});
    for (const r of db.prepare('SELECT path, hash, mtime, size FROM files').all() as { path: string; hash: string; mtime: number; size: number }[]) {
      this.existing.set(r.path, r);
    }
    this.bulk = input.bulk === true && this.existing.size === 0;
    this.vectors = new VectorPipeline({
      db,
      store,
      embedder: input.embedder,
      cacheWrite: input.cacheWrite,
      signal: input.signal,
      now: input.now,
      expectMany: this.bulk && input.files.length > 0,
      worker: input.embedWorker,
      prestarted: input.prestarted,
      yieldNow: () => this.yieldNow(),
    });
    this.writer = new FileWriter({ db, store, bulk: this.bulk, vectors: input.embedder !== null, yieldNow: () => this.yieldNow(), signal: input.signal });
  }

  private progress(phase: SyncProgress['phase']): void {
    this.report({ phase, filesDone: this.filesDone, filesTotal: this.input.files.length, chunksDone: this.chunksDone, chunksTotal: this.chunksSeen });
  }

  /** Removed files first: they need no reading. */
  removeGone(): void {
    const listed = new Set(this.input.files.map((f) => f.path));
    const removed = [...this.existing.keys()].filter((p) => !listed.has(p));
    if (!removed.length) return;
    this.input.db.transaction(() => {
      for (const p of removed) this.input.store.deleteFile(p);
    })();
    this.changed.push(...removed);
  }

  /** Open the bulk transaction (rebuilds), and start on a fresh slice of the event loop. */
  async begin(): Promise<void> {
    if (this.bulk) {
      this.input.db.exec('BEGIN');
      pauseFtsMerging(this.input.db);
    }
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
    this.inFlight.push({ files: this.pending, chunks: this.pendingChunks, job: this.vectors.start(this.pending.flatMap((p) => p.chunks)) });
    this.pending = [];
    this.pendingChunks = 0;
    await this.yieldNow();
    // In-process embedding is done by the time its vectors are awaited: write right away.
    // With a worker, keep batches queued so it never waits for this thread.
    while (this.inFlight.length > this.vectors.maxInFlight) await this.write(this.inFlight.shift()!);
  }

  /** Flush the last batch and write every batch still on its way. */
  async drain(): Promise<void> {
    await this.flush();
    while (this.inFlight.length) await this.write(this.inFlight.shift()!);
  }

  /** Write one batch once its vectors are in (and commit the bulk transaction every so often). */
  private async write(b: Batch): Promise<void> {
    const { db } = this.input;
    const byHash = await this.vectors.finish(b.job);
    throwIfAborted(this.input.signal);
    await this.yieldNow();
    for (const p of b.files) {
      // undefined: a part of a streamed file that is not its last (nothing to report yet).
      const failed = await this.writer.write(p, byHash);
      if (failed) this.unreadable.push({ path: p.file.path, reason: failed });
      else if (failed === null) this.changed.push(p.file.path);
      await this.yieldNow();
    }
    this.chunksDone += b.chunks;
    // Not while a streamed file's savepoint is open: a COMMIT would end it.
    if (this.bulk && (this.uncommitted += b.chunks) >= BULK_COMMIT_CHUNKS && !this.writer.midFile) {
      await mergeFts(db, this.yieldNow, this.input.signal);
      await this.yieldNow(true);
      db.exec('COMMIT');
      db.exec('BEGIN');
      this.uncommitted = 0;
    }
    this.progress('write');
    await this.yieldNow();
  }

  /** Files whose mtime moved but whose content did not: new stamps, no re-chunking. */
  touchUnchanged(): void {
    if (!this.touched.length) return;
    this.input.db.transaction(() => {
      for (const t of this.touched) this.input.store.touchFile(t);
    })();
  }

  /** Count files and chunks, record the chunk count, and commit a bulk run. */
  async finish(): Promise<SyncOutcome> {
    const { db } = this.input;
    const files = (db.prepare('SELECT COUNT(*) FROM files').pluck().get() as number) ?? 0;
    const chunks = (db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number) ?? 0;
    db.prepare("INSERT INTO meta(key, value) VALUES ('chunkCount', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(chunks));
    if (this.bulk) {
      await mergeFts(db, this.yieldNow, this.input.signal);
      resumeFtsMerging(db);
      await this.yieldNow(true);
      db.exec('COMMIT');
    }
    this.progress('done');
    const v = this.vectors;
    return { files, chunks, embedded: v.embedded, embeddedInWorker: v.embeddedInWorker, changed: this.changed, unreadable: this.unreadable };
  }

  close(): void {
    this.vectors.close();
  }
}
