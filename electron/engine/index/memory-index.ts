/**
 * One agent's memory index: the SQLite file, its embedder, sync (incremental or full
 * rebuild), dirty tracking, status and search. Syncs run one at a time, in call order.
 * Easy to drive from a script: `MemoryIndex.open({...})`, `await idx.sync()`,
 * `await idx.search({query, explain: true})`, `idx.dispose()`.
 */
import fs from 'node:fs';
import type { Embedder } from '../embed/types';
import type { MemorySearchSettings } from '../config/schema';
import type { IndexStatus, IndexSyncResult, SearchMode, SearchResponse, UnreadableFile } from '../../../shared/types/search';
import { openDatabase, type Db, type OpenedDatabase } from './db';
import { readIdentity, readMeta, sameIdentity, SCHEMA_VERSION, writeMeta, type IndexIdentity } from './schema';
import { listSourceFiles, listSourceFilesAsync, type SourceRoots } from './sources';
import { createStore } from './store';
import { filesDiffer, filesDifferAsync, syncFiles, type SyncProgress } from './sync';
import { rebuildIndex } from './reindex';
import { prestartEmbedWorker, releasePrestarted } from './embed-jobs';
import { runSearch, type SearchRequest } from '../search/service';
import { LazyKnnWorker } from '../search/knn-worker';
import { CHUNKER_VERSION } from './chunker';
import { removeStaleIndexTemps } from '../util/stale-temps';

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
  /** Chunks from which searches use a KNN worker thread (knn-worker.ts; tests lower it). */
  knnWorkerMinChunks?: number;
}

export interface SyncOptions {
  force?: boolean;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: SyncProgress) => void) | undefined;
}

export class MemoryIndex {
  private opened: OpenedDatabase | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private markedDirty = false;
  private vecChecked: { loaded: boolean; error: string | null } | null = null;
  private disposed = false;
  private readonly knn: LazyKnnWorker;

  private constructor(readonly opts: MemoryIndexOptions) {
    this.knn = new LazyKnnWorker(opts.indexFile, opts.knnWorkerMinChunks);
  }

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

  private now(): Date {
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
    };
  }

  /** Settings, embedder or sources changed since the index was built (or there is none). */
  needsRebuild(): boolean {
    return !this.opened || !sameIdentity(readIdentity(this.opened.db), this.identity());
  }

  /**
   * Files changed on disk since the last sync (a stat pass), or the watcher said so.
   * `stat: false` trusts the watcher alone (the caller knows it is running).
   */
  isDirty(o: { stat?: boolean } = {}): boolean {
    if (this.markedDirty || this.needsRebuild()) return true;
    if (o.stat === false) return false;
    return filesDiffer(this.opened!.db, listSourceFiles(this.opts.roots));
  }

  /** `isDirty` without blocking the event loop (directory reads and stats off the main thread). */
  async isDirtyAsync(): Promise<boolean> {
    if (this.markedDirty || this.needsRebuild()) return true;
    const files = await listSourceFilesAsync(this.opts.roots);
    return !this.opened || (await filesDifferAsync(this.opened.db, files));
  }

  /** The watcher saw a change: the next search syncs first. */
  markDirty(): void {
    this.markedDirty = true;
  }

  private mode(): SearchMode {
    return this.opts.embedder ? (this.opts.settings.query.hybrid.enabled ? 'hybrid' : 'vector-only') : 'fts-only';
  }

  /** Sync the index; a full rebuild when forced or when the identity changed. Serialised. */
  sync(o: SyncOptions = {}): Promise<IndexSyncResult> {
    const run = this.queue.then(() => this.doSync(o));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async doSync(o: SyncOptions): Promise<IndexSyncResult> {
    if (this.disposed) throw new Error('the memory index was closed');
    const started = performance.now();
    // Cleared before listing: a change the watcher reports while the listing runs marks the
    // index dirty again rather than being lost.
    this.markedDirty = false;
    // Rebuild temps of a process killed mid-rebuild (its pid gone) are index-sized: drop
    // them before this sync writes, or they pile up (156 MB after 100 kills, measured).
    removeStaleIndexTemps(this.opts.indexFile);
    const identity = this.identity();
    const full = Boolean(o.force) || this.needsRebuild();
    // A full rebuild embeds everything: its worker (if the embedder has one) loads meanwhile.
    if (full) prestartEmbedWorker(this.opts.embedder);
    let files;
    try {
      files = await listSourceFilesAsync(this.opts.roots, o.signal);
    } catch (err) {
      this.markedDirty = true;
      releasePrestarted(this.opts.embedder);
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
    };
    let outcome;
    try {
      if (full) {
        outcome = await rebuildIndex({ ...common, indexFile: this.opts.indexFile, identity, loadVec: this.opts.loadVec }, () => {
          this.opened?.db.close();
          this.opened = null;
        });
        this.openExisting();
      } else {
        const db = this.opened!.db;
        const store = createStore(db, { model: identity.model, vectors: identity.vector });
        outcome = await syncFiles({ ...common, db, store });
        writeMeta(db, 'lastSync', this.now().toISOString());
      }
    } catch (err) {
      this.markedDirty = true;
      releasePrestarted(this.opts.embedder);
      // A failure after the old handle was closed for the swap (e.g. the rename was refused):
      // the old file is still in place, so keep answering from it.
      if (!this.opened && fs.existsSync(this.opts.indexFile)) this.openExisting();
      throw err;
    }
    releasePrestarted(this.opts.embedder); // not adopted (e.g. nothing to embed)
    this.pruneCache();
    // Kept in the index itself, so `index.status` in any process (app, CLI) can show them.
    if (this.opened) writeMeta(this.opened.db, 'unreadable', JSON.stringify(outcome.unreadable));
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

  /** Keep the embedding cache under `cache.maxEntries` (oldest entries go first). */
  private pruneCache(): void {
    const max = this.opts.settings.cache.maxEntries;
    if (!max || !this.opened) return;
    this.opened.db
      .prepare('DELETE FROM embedding_cache WHERE rowid IN (SELECT rowid FROM embedding_cache ORDER BY updated_at DESC LIMIT -1 OFFSET ?)')
      .run(max);
  }

  /** Counts, last sync, mode, embedder, vector backend and dirtiness. */
  status(): IndexStatus {
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
      dirty: this.isDirty(),
      sources: [...this.opts.roots.sources],
      warnings: [...(this.vecChecked?.error && e ? [this.vecChecked.error] : []), ...unreadableWarnings(unreadable)],
      unreadable,
    };
  }

  /** Search the index as it is (callers sync first when dirty). */
  async search(req: SearchRequest): Promise<SearchResponse> {
    const db = this.opened?.db;
    // A rebuild may swap the file (closing this handle) while the search awaits the query
    // vector: then answer again from the new index rather than fail or return nothing.
    const swapped = () => db !== undefined && !db.open && this.opened !== null && this.opened.db !== db;
    const res = await this.searchOnce(req).catch((err: unknown) => {
      if (swapped()) return null;
      throw err;
    });
    return res === null || swapped() ? this.searchOnce(req) : res;
  }

  private async searchOnce(req: SearchRequest): Promise<SearchResponse> {
    const started = performance.now();
    const warnings: string[] = [];
    if (!this.opened) {
      return { results: [], mode: this.mode(), embedder: this.embedderInfo(), warnings: ['the index has not been built yet: run cairn index'], tookMs: 0 };
    }
    const vector = this.vectorKind();
    if (vector === 'fallback' && this.vecChecked?.error) warnings.push(this.vecChecked.error);
    const built = readIdentity(this.opened.db);
    // An index built for another embedder cannot answer vector queries: keyword side only.
    const usable = built && built.provider === (this.opts.embedder?.provider ?? null) && built.model === (this.opts.embedder?.model ?? null) && built.vector === vector;
    const out = await runSearch(
      {
        db: this.opened.db,
        vector: usable ? vector : 'none',
        embedder: usable ? this.opts.embedder : null,
        knn: usable && vector === 'vec0' ? this.knn.forSearch(Number(readMeta(this.opened.db, 'chunkCount') ?? 0)) : undefined,
      },
      this.opts.settings,
      req,
      this.now(),
    );
    if (!usable && this.opts.embedder) warnings.push('the index was built with another embedder and is being rebuilt: keyword results only');
    return { ...out, embedder: this.embedderInfo(), warnings: [...warnings, ...out.warnings], tookMs: Math.round((performance.now() - started) * 10) / 10 };
  }

  private embedderInfo() {
    const e = this.opts.embedder;
    return e ? { provider: e.provider, model: e.model } : null;
  }

  /** Whether searches now run their KNN on a worker thread (waits for a start under way). */
  knnWorkerReady(): Promise<boolean> {
    return this.knn.ready();
  }

  /** Close the database (waits for a running sync to finish or fail first). */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.queue;
    await this.knn.close();
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
