/**
 * One agent's memory index: the SQLite file, its embedder, sync (incremental or full
 * rebuild), dirty tracking and status. Syncs run one at a time, in call order. Searching is
 * the floor above's job: the search pipeline takes the index (search/index-search.ts
 * `searchIndex(idx, req)` reads `idx.snapshot()`), the index never calls the pipeline.
 * Easy to drive from a script: `MemoryIndex.open({...})`, `await idx.sync()`,
 * `await searchIndex(idx, {query, explain: true})`, `idx.dispose()`.
 */
import fs from 'node:fs';
import type { Embedder } from '../embed/types';
import type { MemorySearchSettings } from '../config/schema';
import type { IndexStatus, IndexSyncResult, SearchMode, UnreadableFile } from '../../../shared/types/search';
import { openDatabase, type Db, type OpenedDatabase } from './db';
import { readIdentity, readMeta, sameIdentity, SCHEMA_VERSION, vectorsReadable, writeMeta, type IndexIdentity } from './schema';
import { listSourceFiles, type SourceRoots } from './sources';
import { createStore } from './store';
import { LINE_UNITS_VERSION, lineVectorsFor } from './line-vectors';
import { filesDiffer, syncFiles, type SyncProgress } from './sync';
import { rebuildIndex } from './reindex';
import { prestartEmbedWorker } from './embed-jobs';
import { CHUNKER_VERSION } from './chunker';
import { removeStaleIndexTemps } from '../util/stale-temps';
import { pruneIndexCache, WRITE_WORKER_MIN_FILES } from './write-side';
import type { WriteFault } from './write-worker';
import type { WriteWorker, WriteWorkerMode, WriterThread } from './write-client';
import { EngineError } from '../core/errors';

export interface MemoryIndexOptions {
  agentId: string;
  indexFile: string;
  roots: SourceRoots;
  settings: MemorySearchSettings;
  /** null = FTS-only mode. Not owned: the caller disposes it. */
  embedder: Embedder | null;
  /** Inject a sqlite-vec loader (tests make it throw); `false` never loads it. */
  loadVec?: ((db: Db) => void) | false;
  /** Shown when sqlite-vec cannot load (ctx.warn in the engine). */
  warn?: (message: string) => void;
  now?: () => Date;
  /** Chunks from which searches use a KNN worker thread (read by search/knn-worker.ts; tests lower it). */
  knnWorkerMinChunks?: number;
  /** Where syncs make their SQLite writes (write-client.ts WriteWorkerMode; default `auto`; tests and benchmarks force a side). */
  writeWorker?: WriteWorkerMode;
  /** Test seam: a failure the write worker raises (write-worker.ts WriteFault). */
  writeWorkerFault?: WriteFault;
}

export interface SyncOptions {
  force?: boolean;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: SyncProgress) => void) | undefined;
}

/** What a search reads from the index: the open handle and which vector side it may use. */
export interface IndexSnapshot {
  db: Db;
  /** The vector side that can answer for the current embedder ('none': keyword side only). */
  vector: 'vec0' | 'fallback' | 'none';
  /** The embedder for query vectors, null when the vector side cannot be used. */
  embedder: Embedder | null;
  /** The index was built for another embedder (keyword results only until the rebuild). */
  otherEmbedder: boolean;
  /** The schema the index was built with when older than this Cairn's (it is rebuilt), else null. */
  olderSchema: number | null;
  /** Why sqlite-vec did not load, when the brute-force fallback answers instead. */
  vecError: string | null;
  /** Chunks in the index (from the meta table: no count query). */
  chunkCount: number;
}

/** A per-index helper of a higher floor (the search pipeline's KNN worker), closed with the index. */
export interface IndexAttachment {
  close(): Promise<void>;
}

export class MemoryIndex {
  private opened: OpenedDatabase | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** The sync running now, if any: a full rebuild or an incremental one, and its end. */
  private running: { kind: 'rebuild' | 'incremental'; done: Promise<void> } | null = null;
  private markedDirty = false;
  private vecChecked: { loaded: boolean; error: string | null } | null = null;
  private disposed = false;
  private readonly attachments = new Map<symbol, IndexAttachment>();
  /** The write worker (write-client.ts), loaded on the first sync: its own chunk in the CLI bundle. */
  private writer: Promise<WriterThread> | null = null;

  private constructor(readonly opts: MemoryIndexOptions) {}

  /** Open the agent's index (the file is created by the first sync). */
  static open(opts: MemoryIndexOptions): MemoryIndex {
    const idx = new MemoryIndex(opts);
    if (fs.existsSync(opts.indexFile)) idx.openExisting();
    return idx;
  }

  get embedder(): Embedder | null {
    return this.opts.embedder;
  }

  /** Whether an index file has been built (cheap: no stat pass, unlike `status()`). */
  get built(): boolean {
    return this.opened !== null;
  }

  /** The index's clock (tests pin it); searches date their decay and relative dates by it. */
  now(): Date {
    return this.opts.now ? this.opts.now() : new Date();
  }

  private openExisting(): void {
    let opened: OpenedDatabase;
    try {
      opened = openDatabase(this.opts.indexFile, { loadVec: this.opts.embedder ? this.opts.loadVec : false });
      opened.db.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    } catch (err) {
      // The index is only a cache of the memory files: a file that is not (or no longer) a
      // valid database is moved aside (kept for a bug report) and the next sync rebuilds it.
      // Anything else (locked, no permission) is reported as is.
      const code = (err as { code?: string }).code ?? '';
      if (!code.startsWith('SQLITE_NOTADB') && !code.startsWith('SQLITE_CORRUPT')) throw err;
      const aside = `${this.opts.indexFile}.corrupt-${Date.now()}`;
      fs.renameSync(this.opts.indexFile, aside);
      for (const f of [`${this.opts.indexFile}-wal`, `${this.opts.indexFile}-shm`]) fs.rmSync(f, { force: true });
      this.opts.warn?.(`the memory index ${this.opts.indexFile} could not be read (${(err as Error).message}); moved to ${aside}, rebuilding it from the memory files`);
      this.opened = null;
      return;
    }
    this.opened = opened;
    if (this.opts.embedder) this.noteVec(opened);
  }

  private noteVec(o: OpenedDatabase): void {
    this.vecChecked = { loaded: o.vecLoaded, error: o.vecError };
    if (!o.vecLoaded && o.vecError) this.opts.warn?.(o.vecError);
  }

  /** Whether sqlite-vec loads here (probed once, on a throwaway in-memory handle when needed). */
  private vectorKind(): 'vec0' | 'fallback' | 'none' {
    if (!this.opts.embedder) return 'none';
    if (!this.vecChecked) {
      const probe = openDatabase(':memory:', { loadVec: this.opts.loadVec });
      probe.db.close();
      this.noteVec(probe);
    }
    return this.vecChecked!.loaded ? 'vec0' : 'fallback';
  }

  /** What the index must have been built with to be reused. */
  identity(): IndexIdentity {
    const s = this.opts.settings;
    const e = this.opts.embedder;
    return {
      schema: SCHEMA_VERSION,
      provider: e?.provider ?? null,
      model: e?.model ?? null,
      dims: e?.dims ?? null,
      chunking: { tokens: s.chunking.tokens, overlap: s.chunking.overlap, version: CHUNKER_VERSION },
      sources: [...this.opts.roots.sources].sort(),
      extraPaths: [...this.opts.roots.extraPaths],
      vector: this.vectorKind(),
      ...(lineVectorsFor(s.query.hybrid.lineVectors, e?.provider ?? null) && { lines: true as const, lineUnits: LINE_UNITS_VERSION }),
    };
  }

  /** Settings, embedder or sources changed since the index was built (or there is none). */
  needsRebuild(): boolean {
    return !this.opened || !sameIdentity(readIdentity(this.opened.db), this.identity());
  }

  /**
   * Files changed on disk since the last sync (a listing and a stat pass, off the main
   * thread), or the watcher said so. `stat: false` trusts the watcher alone (the caller knows
   * it is running).
   */
  async isDirty(o: { stat?: boolean } = {}): Promise<boolean> {
    if (this.markedDirty || this.needsRebuild()) return true;
    if (o.stat === false) return false;
    const files = await listSourceFiles(this.opts.roots);
    return !this.opened || (await filesDiffer(this.opened.db, files));
  }

  /** The watcher saw a change: the next search syncs first. */
  markDirty(): void {
    this.markedDirty = true;
  }

  /** How searches run: hybrid, vector-only or fts-only (no embedder). */
  mode(): SearchMode {
    return this.opts.embedder ? (this.opts.settings.query.hybrid.enabled ? 'hybrid' : 'vector-only') : 'fts-only';
  }

  /** Sync the index; a full rebuild when forced or when the identity changed. Serialised. */
  sync(o: SyncOptions = {}): Promise<IndexSyncResult> {
    const run = this.queue.then(() => this.doSync(o));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The sync running now: `rebuild` (the old index still answers), `incremental`, or null. */
  syncing(): 'rebuild' | 'incremental' | null {
    return this.running?.kind ?? null;
  }

  /** Resolves when the sync running now has finished (failed ones too), not those queued behind it; at once when none runs. */
  async settled(): Promise<void> {
    await this.running?.done;
  }

  private async doSync(o: SyncOptions): Promise<IndexSyncResult> {
    if (this.disposed) throw new EngineError('unavailable', 'the memory index was closed');
    const started = performance.now();
    // Cleared before listing: a change the watcher reports while the listing runs marks the
    // index dirty again rather than being lost.
    this.markedDirty = false;
    // Rebuild temps of a process killed mid-rebuild (its pid gone) are index-sized: drop
    // them before this sync writes, or they pile up (156 MB after 100 kills, measured).
    removeStaleIndexTemps(this.opts.indexFile);
    const identity = this.identity();
    const full = Boolean(o.force) || this.needsRebuild();
    let end = () => {};
    this.running = { kind: full ? 'rebuild' : 'incremental', done: new Promise<void>((r) => (end = r)) };
    try {
      return await this.syncNow(o, identity, full, started);
    } finally {
      this.running = null;
      end();
    }
  }

  private async syncNow(o: SyncOptions, identity: IndexIdentity, full: boolean, started: number): Promise<IndexSyncResult> {
    // A full rebuild embeds everything: its worker (if the embedder has one) loads meanwhile.
    const prestarted = full ? prestartEmbedWorker(this.opts.embedder) : null;
    let files;
    try {
      files = await listSourceFiles(this.opts.roots, o.signal);
    } catch (err) {
      this.markedDirty = true;
      prestarted?.release();
      throw err;
    }
    const common = {
      embedder: this.opts.embedder,
      files,
      chunking: this.opts.settings.chunking,
      cacheWrite: this.opts.settings.cache.enabled,
      signal: o.signal,
      onProgress: o.onProgress,
      now: () => this.now().getTime(),
      prestarted,
    };
    let outcome;
    let worker: WriteWorker | null = null;
    const pruneMax = this.opts.settings.cache.maxEntries ?? 0;
    // With a worker, written by it with its last step: nothing is written on this thread.
    const after = (out: { unreadable: UnreadableFile[] }) => ({ unreadable: JSON.stringify(out.unreadable) });
    try {
      worker = await this.writeWorkerFor(full, files.length);
      const beforeSwap = () => {
        this.opened?.db.close();
        this.opened = null;
      };
      const wc = worker && (await import('./write-client'));
      if (full) {
        const input = { ...common, indexFile: this.opts.indexFile, identity, loadVec: this.opts.loadVec };
        outcome = wc ? await wc.rebuildInWorker(worker!, input, (out) => ({ meta: after(out), pruneMax }), beforeSwap) : await rebuildIndex(input, beforeSwap);
        this.openExisting();
      } else if (wc) {
        const target = { indexFile: this.opts.indexFile, provider: identity.provider, model: identity.model, vector: identity.vector };
        outcome = await wc.syncInWorker(worker!, common, target, (out) => ({ meta: { lastSync: this.now().toISOString(), ...after(out) }, pruneMax }));
      } else {
        const db = this.opened!.db;
        const store = createStore(db, { provider: identity.provider, model: identity.model, vectors: identity.vector });
        outcome = await syncFiles({ ...common, db, store });
        writeMeta(db, 'lastSync', this.now().toISOString());
      }
    } catch (err) {
      this.markedDirty = true;
      prestarted?.release();
      // A failure after the old handle was closed for the swap (e.g. the rename was refused):
      // the old file is still in place, so keep answering from it.
      if (!this.opened && fs.existsSync(this.opts.indexFile)) this.openExisting();
      throw err;
    }
    prestarted?.release(); // not adopted (e.g. nothing to embed)
    if (!worker && this.opened) {
      pruneIndexCache(this.opened.db, pruneMax);
      // Kept in the index itself, so `index.status` in any process (app, CLI) can show them.
      writeMeta(this.opened.db, 'unreadable', after(outcome).unreadable);
    }
    return {
      files: outcome.files,
      chunks: outcome.chunks,
      embedded: outcome.embedded,
      durationMs: Math.round(performance.now() - started),
      mode: this.mode(),
      full,
      unreadable: outcome.unreadable,
    };
  }

  /** The write worker for this sync, or null (write here): see WriteWorkerMode. It loads only the default sqlite-vec. */
  private async writeWorkerFor(full: boolean, files: number): Promise<WriteWorker | null> {
    const { writeWorker: mode = 'auto', loadVec } = this.opts;
    if (mode === 'off' || this.disposed) return null;
    // `auto` and no worker yet: only a big rebuild loads the worker's module (a one-shot CLI sync never does).
    if (mode === 'auto' && !this.writer && !(full && files >= WRITE_WORKER_MIN_FILES)) return null;
    this.writer ??= import('./write-client').then((m) => new m.WriterThread(mode, this.opts.writeWorkerFault));
    return (await this.writer).forSync(full, files, loadVec === undefined || loadVec === false || !this.opts.embedder);
  }

  /** Counts, last sync, mode, embedder, vector backend and dirtiness. */
  async status(): Promise<IndexStatus> {
    const db = this.opened?.db;
    const unreadable = db ? parseUnreadable(readMeta(db, 'unreadable')) : [];
    const count = (sql: string) => (db ? ((db.prepare(sql).pluck().get() as number) ?? 0) : 0);
    const e = this.opts.embedder;
    return {
      agentId: this.opts.agentId,
      indexFile: this.opts.indexFile,
      exists: Boolean(db),
      files: count('SELECT COUNT(*) FROM files'),
      chunks: count('SELECT COUNT(*) FROM chunks'),
      lastSync: db ? (readMeta(db, 'lastSync') ?? null) : null,
      mode: this.mode(),
      embedder: e ? { provider: e.provider, model: e.model } : null,
      vector: this.vectorKind(),
      dirty: await this.isDirty(),
      sources: [...this.opts.roots.sources],
      warnings: [...(this.vecChecked?.error && e ? [this.vecChecked.error] : []), ...unreadableWarnings(unreadable)],
      unreadable,
    };
  }

  /**
   * What a search reads now, or null before the first build. A rebuild may swap the file
   * (closing this handle) while a search runs: `db.open` turns false, and a fresh snapshot
   * has the new handle.
   */
  snapshot(): IndexSnapshot | null {
    if (!this.opened) return null;
    const db = this.opened.db;
    const vector = this.vectorKind();
    const built = readIdentity(db);
    const e = this.opts.embedder;
    // An index built for another embedder cannot answer vector queries: keyword side only.
    const usable = Boolean(built) && built!.provider === (e?.provider ?? null) && built!.model === (e?.model ?? null) && built!.vector === vector && vectorsReadable(built!);
    return {
      db,
      vector: usable ? vector : 'none',
      embedder: usable ? e : null,
      otherEmbedder: !usable && e !== null,
      olderSchema: built !== undefined && built.schema < SCHEMA_VERSION ? built.schema : null,
      vecError: vector === 'fallback' ? (this.vecChecked?.error ?? null) : null,
      chunkCount: Number(readMeta(db, 'chunkCount') ?? 0),
    };
  }

  /**
   * The helper a higher floor keeps for this index under `key` (made by `make` on first
   * use), closed when the index is disposed — so the index owns its lifetime without
   * knowing what it is.
   */
  attachment<T extends IndexAttachment>(key: symbol, make: () => T): T {
    let a = this.attachments.get(key);
    if (!a) this.attachments.set(key, (a = make()));
    return a as T;
  }

  /** Close the database (waits for a running sync to finish or fail first). */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.queue;
    for (const a of this.attachments.values()) await a.close();
    this.attachments.clear();
    await (await this.writer)?.close();
    this.opened?.db.close();
    this.opened = null;
  }
}

/** The unreadable files recorded by the last sync (none when never recorded or garbled). */
function parseUnreadable(text: string | undefined): UnreadableFile[] {
  if (!text) return [];
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is UnreadableFile => typeof x?.path === 'string' && typeof x?.reason === 'string') : [];
  } catch {
    return [];
  }
}

/** One warning per unreadable file (at most 5, then a count), for Status and `cairn index`. */
function unreadableWarnings(files: UnreadableFile[]): string[] {
  const shown = files.slice(0, 5).map((f) => `${f.path} could not be read and was skipped (${f.reason})`);
  if (files.length > 5) shown.push(`${files.length - 5} more memory files could not be read and were skipped`);
  return shown;
}
