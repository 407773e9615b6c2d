/**
 * One sync pass over the source files into an open index: find what changed (stat, then
 * content hash), re-chunk only those files, embed cache misses, write each file in one
 * transaction. Work is done in small batches with a yield between them so the event loop
 * (Electron's main thread) never stalls; progress is reported and the AbortSignal honoured
 * between batches. Embedding runs ahead of the writes (embed-jobs.ts), in a worker thread
 * for big runs.
 */
import fs from 'node:fs';
import type { UnreadableFile } from '../../../shared/types/search';
import type { Embedder } from '../embed/types';
import { MAX_MEMORY_FILE_BYTES as MAX_SOURCE_BYTES, readRegularFile } from '../util/safe-read';
import type { Db } from './db';
import type { SourceFile } from './sources';
import type { ChunkingOptions } from './chunker';
import { sha256 } from './chunker';
import { prepareChunks, type PreparedChunk } from './prepare';
import type { ChunkRow, FileRow, Store } from './store';
import { VectorPipeline, type VectorJob } from './embed-jobs';
import { mergeFts, pauseFtsMerging, resumeFtsMerging } from './bulk-fts';

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


/**
 * Read one source file without letting it stop the sync: an error (EACCES from a chmod 000
 * note, EIO, a path swapped for a FIFO since it was listed) becomes a skipped entry.
 */
async function readSource(abs: string, shown: string): Promise<{ text: string } | { unreadable: UnreadableFile }> {
  try {
    const r = await readRegularFile(abs, MAX_SOURCE_BYTES);
    if (r.truncated) return { unreadable: { path: shown, reason: `EFBIG: larger than ${MAX_SOURCE_BYTES} bytes` } };
    return { text: r.text };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const reason = e.code ? `${e.code}: ${e.message.replace(/^\w+: /, '').replace(/, open '.*'$/, '')}` : e.message;
    return { unreadable: { path: shown, reason } };
  }
}

/** Chunks gathered before embedding and writing (one embed call for async embedders). */
const BATCH_CHUNKS = 96;
/** Chunks per write transaction (or per step between yields) for a file too big to write at once. */
const STEP_CHUNKS = 48;
/**
 * Chunks per commit in bulk mode: a commit writes the dirty pages and FTS5's pending terms
 * (a new segment; merged in steps by bulk-fts.ts) in one synchronous step of a few ms.
 */
const BULK_COMMIT_CHUNKS = 512;
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

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const err = new Error('indexing cancelled');
    err.name = 'AbortError';
    throw err;
  }
}

interface PendingFile {
  file: FileRow;
  chunks: PreparedChunk[];
}

/** A batch of files whose vectors are on their way. */
interface Batch {
  files: PendingFile[];
  chunks: number;
  job: VectorJob;
}

/** Bring the index in line with `input.files`. */
export async function syncFiles(input: SyncInput): Promise<SyncOutcome> {
  const { db, store, signal } = input;
  const yieldNow = createYielder();
  const report = input.onProgress ?? (() => {});
  const existing = new Map<string, { hash: string; mtime: number; size: number }>();
  for (const r of db.prepare('SELECT path, hash, mtime, size FROM files').all() as { path: string; hash: string; mtime: number; size: number }[]) {
    existing.set(r.path, r);
  }
  // A private, empty database (a full rebuild's temp file): everything goes in one write
  // transaction — far fewer, bigger FTS segments and no per-file commit — and files are only
  // inserted, never replaced. A failure throws the whole file away anyway.
  const bulk = input.bulk === true && existing.size === 0;
  const changed: string[] = [];
  const listed = new Set(input.files.map((f) => f.path));
  const filesTotal = input.files.length;

  // Removed files first: they need no reading.
  const removed = [...existing.keys()].filter((p) => !listed.has(p));
  if (removed.length) {
    db.transaction(() => {
      for (const p of removed) store.deleteFile(p);
    })();
    changed.push(...removed);
  }

  // One streaming pass: stat each file, read and hash it only when mtime/size moved, chunk
  // it when the content changed, and embed + write every ~BATCH_CHUNKS chunks. Only a few
  // batches of texts are held in memory, whatever the size of the memory.
  const vectors = new VectorPipeline({
    db,
    store,
    embedder: input.embedder,
    cacheWrite: input.cacheWrite,
    signal,
    now: input.now,
    expectMany: bulk && filesTotal > 0,
    worker: input.embedWorker,
  });
  let filesDone = 0;
  let chunksDone = 0;
  let chunksSeen = 0;
  let pending: PendingFile[] = [];
  let pendingChunks = 0;
  const inFlight: Batch[] = [];
  let uncommitted = 0;
  const touched: FileRow[] = [];
  const unreadable: UnreadableFile[] = [];
  const rowsOf = (chunks: readonly PreparedChunk[], byHash: Map<string, Float32Array>): ChunkRow[] =>
    chunks.map((c) => ({ ...c, vector: input.embedder ? (byHash.get(c.bodyHash) ?? null) : null }));

  // One transaction per file (a file is never half-written), yielding between files; in bulk
  // mode the one open transaction covers them all.
  const writeFile = db.transaction((p: PendingFile, byHash: Map<string, Float32Array>) => {
    store.replaceFile(p.file, rowsOf(p.chunks, byHash));
  });

  // A file with many chunks (a huge MEMORY.md) is written in steps, each a short transaction;
  // its files row is marked unfinished first, so an interruption is redone by the next sync.
  const writeBigFile = async (p: PendingFile, byHash: Map<string, Float32Array>) => {
    if (!bulk) {
      db.transaction(() => {
        store.dropChunks(p.file.path);
        store.putFile({ ...p.file, hash: '', mtime: 0 });
      })();
    }
    for (let i = 0; i < p.chunks.length; i += STEP_CHUNKS) {
      const rows = rowsOf(p.chunks.slice(i, i + STEP_CHUNKS), byHash);
      if (bulk) store.insertChunks(rows);
      else db.transaction(() => store.insertChunks(rows))();
      await yieldNow(!bulk);
    }
    store.putFile(p.file);
  };

  const write = async (b: Batch) => {
    const byHash = await vectors.finish(b.job);
    throwIfAborted(signal);
    for (const p of b.files) {
      if (p.chunks.length > STEP_CHUNKS) await writeBigFile(p, byHash);
      else if (bulk) {
        store.insertChunks(rowsOf(p.chunks, byHash));
        store.putFile(p.file);
      } else writeFile(p, byHash);
      await yieldNow();
    }
    chunksDone += b.chunks;
    if (bulk && (uncommitted += b.chunks) >= BULK_COMMIT_CHUNKS) {
      await mergeFts(db, yieldNow, signal);
      await yieldNow(true);
      db.exec('COMMIT');
      db.exec('BEGIN');
      uncommitted = 0;
    }
    changed.push(...b.files.map((p) => p.file.path));
    report({ phase: 'write', filesDone, filesTotal, chunksDone, chunksTotal: chunksSeen });
    await yieldNow();
  };

  const flush = async () => {
    if (pending.length === 0) return;
    throwIfAborted(signal);
    report({ phase: 'embed', filesDone, filesTotal, chunksDone, chunksTotal: chunksSeen });
    inFlight.push({ files: pending, chunks: pendingChunks, job: vectors.start(pending.flatMap((p) => p.chunks)) });
    pending = [];
    pendingChunks = 0;
    await yieldNow();
    // In-process embedding is done by the time its vectors are awaited: write right away.
    // With a worker, keep batches queued so it never waits for this thread.
    while (inFlight.length > vectors.maxInFlight) await write(inFlight.shift()!);
  };

  try {
    if (bulk) {
      db.exec('BEGIN');
      pauseFtsMerging(db);
    }
    // Whatever ran before (listing, opening the database) had its own slice.
    await yieldNow(true);
    for (const src of input.files) {
      throwIfAborted(signal);
      filesDone++;
      let st: fs.Stats;
      try {
        st = fs.lstatSync(src.abs);
      } catch {
        continue; // vanished since listing: handled as removed next time
      }
      if (!st.isFile()) continue;
      const prev = existing.get(src.path);
      if (prev && prev.mtime === Math.round(st.mtimeMs) && prev.size === st.size) {
        if (filesDone % 256 === 0) {
          report({ phase: 'scan', filesDone, filesTotal, chunksDone, chunksTotal: chunksSeen });
          await yieldNow();
        }
        continue;
      }
      const got = await readSource(src.abs, src.path);
      if ('unreadable' in got) {
        unreadable.push(got.unreadable);
        continue;
      }
      const { text } = got;
      const hash = sha256(text);
      const row: FileRow = { path: src.path, source: src.source, hash, mtime: st.mtimeMs, size: st.size };
      if (prev && prev.hash === hash) {
        touched.push(row);
        continue;
      }
      const chunks = prepareChunks(src, text, st.mtimeMs, input.chunking);
      chunksSeen += chunks.length;
      pending.push({ file: row, chunks });
      pendingChunks += chunks.length;
      if (pendingChunks >= BATCH_CHUNKS) await flush();
      else await yieldNow();
    }
    await flush();
    while (inFlight.length) await write(inFlight.shift()!);
    if (touched.length) {
      db.transaction(() => {
        for (const t of touched) store.touchFile(t);
      })();
    }

    const files = (db.prepare('SELECT COUNT(*) FROM files').pluck().get() as number) ?? 0;
    const chunks = (db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number) ?? 0;
    db.prepare("INSERT INTO meta(key, value) VALUES ('chunkCount', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(chunks));
    if (bulk) {
      await mergeFts(db, yieldNow, signal);
      resumeFtsMerging(db);
      await yieldNow(true);
      db.exec('COMMIT');
    }
    report({ phase: 'done', filesDone, filesTotal, chunksDone, chunksTotal: chunksSeen });
    return { files, chunks, embedded: vectors.embedded, embeddedInWorker: vectors.embeddedInWorker, changed, unreadable };
  } finally {
    vectors.close();
  }
}

/**
 * Quick dirty check without reading contents: true when a listed file is new, gone, or has
 * another mtime/size than when it was indexed. The stats run off the main thread, a group at
 * a time (a 900-file workspace is 900 lstats: a blocking loop of them stalled the event loop).
 */
export async function filesDiffer(db: Db, files: readonly SourceFile[]): Promise<boolean> {
  const rows = db.prepare('SELECT path, mtime, size FROM files').all() as { path: string; mtime: number; size: number }[];
  if (rows.length !== files.length) return true;
  const byPath = new Map(rows.map((r) => [r.path, r]));
  const GROUP = 64;
  for (let i = 0; i < files.length; i += GROUP) {
    const group = files.slice(i, i + GROUP);
    const stats = await Promise.all(group.map((f) => fs.promises.lstat(f.abs).catch(() => null)));
    for (let j = 0; j < group.length; j++) {
      const r = byPath.get(group[j]!.path);
      const st = stats[j];
      if (!r || !st || Math.round(st.mtimeMs) !== r.mtime || st.size !== r.size) return true;
    }
  }
  return false;
}
