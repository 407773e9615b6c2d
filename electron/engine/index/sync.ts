/**
 * One sync pass over the source files into an open index: find what changed (stat, then
 * content hash), re-chunk only those files, embed cache misses, write each file in one
 * transaction. Work is done in small batches with a yield between them so the event loop
 * (Electron's main thread) never stalls; progress is reported and the AbortSignal honoured
 * between batches.
 */
import fs from 'node:fs';
import type { Embedder } from '../embed/types';
import type { Db } from './db';
import type { SourceFile } from './sources';
import type { ChunkingOptions } from './chunker';
import { sha256 } from './chunker';
import { prepareChunks, type PreparedChunk } from './prepare';
import type { ChunkRow, FileRow, Store } from './store';

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
}

/** Chunks gathered before embedding and writing (one embed call for async embedders). */
const BATCH_CHUNKS = 96;
/** Chunks per write transaction for a file too big to write in one. */
const STEP_CHUNKS = 48;
/** Texts per call for an embedder that computes synchronously on this thread. */
const SYNC_EMBED_BATCH = 8;
/** Longest stretch of synchronous work before yielding to the event loop. */
const SLICE_MS = 12;

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

/** Embed what the cache does not have, in sub-batches; returns vectors by body hash. */
async function vectorsFor(input: SyncInput, chunks: readonly PreparedChunk[]): Promise<{ byHash: Map<string, Float32Array>; embedded: number }> {
  const emb = input.embedder;
  if (!emb || chunks.length === 0) return { byHash: new Map(), embedded: 0 };
  const hashes = [...new Set(chunks.map((c) => c.bodyHash))];
  const byHash = input.store.cacheGet(emb.provider, emb.model, hashes);
  const missing: { hash: string; body: string }[] = [];
  const queued = new Set<string>();
  for (const c of chunks) {
    const h = c.bodyHash;
    if (!byHash.has(h) && !queued.has(h)) {
      queued.add(h);
      missing.push({ hash: h, body: c.body });
    }
  }
  if (missing.length === 0) return { byHash, embedded: 0 };
  // The static embedder computes synchronously: small calls with a yield between keep the
  // event loop free. Other embedders are asynchronous (network, llama.cpp threads): one call.
  const step = emb.provider === 'static' ? SYNC_EMBED_BATCH : missing.length;
  const vectors: Float32Array[] = [];
  for (let i = 0; i < missing.length; i += step) {
    throwIfAborted(input.signal);
    vectors.push(...(await emb.embed(missing.slice(i, i + step).map((m) => m.body), { signal: input.signal })));
    if (step < missing.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (vectors.length !== missing.length) {
    throw new Error(`embedder ${emb.id} returned ${vectors.length} vectors for ${missing.length} texts`);
  }
  const fresh: { hash: string; vector: Float32Array }[] = [];
  missing.forEach((m, i) => {
    const v = vectors[i]!;
    if (v.length !== emb.dims) throw new Error(`embedder ${emb.id} returned a ${v.length}-dim vector; expected ${emb.dims}`);
    byHash.set(m.hash, v);
    fresh.push({ hash: m.hash, vector: v });
  });
  if (input.cacheWrite) input.db.transaction(() => input.store.cachePut(emb.provider, emb.model, fresh, input.now()))();
  return { byHash, embedded: missing.length };
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
  // it when the content changed, and embed + write every ~BATCH_CHUNKS chunks. Only one
  // batch of texts is held in memory, whatever the size of the memory.
  let embedded = 0;
  let filesDone = 0;
  let chunksDone = 0;
  let chunksSeen = 0;
  let pending: PendingFile[] = [];
  let pendingChunks = 0;
  const touched: FileRow[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    throwIfAborted(signal);
    const all = pending.flatMap((p) => p.chunks);
    report({ phase: 'embed', filesDone, filesTotal, chunksDone, chunksTotal: chunksSeen });
    const { byHash, embedded: n } = await vectorsFor(input, all);
    embedded += n;
    await yieldNow(true);
    throwIfAborted(signal);
    // One transaction per file (a file is never half-written), yielding between files.
    const writeFile = db.transaction((p: PendingFile) => {
      const rows: ChunkRow[] = p.chunks.map((c) => ({ ...c, vector: input.embedder ? (byHash.get(c.bodyHash) ?? null) : null }));
      store.replaceFile(p.file, rows);
    });
    for (const p of pending) {
      if (p.chunks.length <= STEP_CHUNKS) writeFile(p);
      else await writeBigFile(p, byHash);
      await yieldNow();
    }
    chunksDone += pendingChunks;
    changed.push(...pending.map((p) => p.file.path));
    pending = [];
    pendingChunks = 0;
    report({ phase: 'write', filesDone, filesTotal, chunksDone, chunksTotal: chunksSeen });
    await yieldNow(true);
  };

  // A file with many chunks (a huge MEMORY.md) is written in steps, each a short transaction;
  // its files row is marked unfinished first, so an interruption is redone by the next sync.
  const writeBigFile = async (p: PendingFile, byHash: Map<string, Float32Array>) => {
    db.transaction(() => {
      store.dropChunks(p.file.path);
      store.putFile({ ...p.file, hash: '', mtime: 0 });
    })();
    for (let i = 0; i < p.chunks.length; i += STEP_CHUNKS) {
      const rows: ChunkRow[] = p.chunks
        .slice(i, i + STEP_CHUNKS)
        .map((c) => ({ ...c, vector: input.embedder ? (byHash.get(c.bodyHash) ?? null) : null }));
      db.transaction(() => store.insertChunks(rows))();
      await yieldNow(true);
    }
    store.putFile(p.file);
  };

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
    const text = fs.readFileSync(src.abs, 'utf8');
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
  if (touched.length) {
    db.transaction(() => {
      for (const t of touched) store.touchFile(t);
    })();
  }

  const files = (db.prepare('SELECT COUNT(*) FROM files').pluck().get() as number) ?? 0;
  const chunks = (db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number) ?? 0;
  db.prepare("INSERT INTO meta(key, value) VALUES ('chunkCount', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(chunks));
  report({ phase: 'done', filesDone, filesTotal, chunksDone, chunksTotal: chunksSeen });
  return { files, chunks, embedded, changed };
}

/**
 * Quick dirty check without reading contents: true when a listed file is new, gone, or has
 * another mtime/size than when it was indexed.
 */
export function filesDiffer(db: Db, files: readonly SourceFile[]): boolean {
  const rows = db.prepare('SELECT path, mtime, size FROM files').all() as { path: string; mtime: number; size: number }[];
  if (rows.length !== files.length) return true;
  const byPath = new Map(rows.map((r) => [r.path, r]));
  for (const f of files) {
    const r = byPath.get(f.path);
    if (!r) return true;
    try {
      const st = fs.lstatSync(f.abs);
      if (Math.round(st.mtimeMs) !== r.mtime || st.size !== r.size) return true;
    } catch {
      return true;
    }
  }
  return false;
}
