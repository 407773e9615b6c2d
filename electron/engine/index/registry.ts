/**
 * The engine's memory indexes, one per agent, shared by the contract handlers, the CLI and
 * the MCP server: opened on first use, re-opened when the agent's memorySearch settings
 * change, synced with progress/idle events, watched (lazily, only when a long-lived client
 * asks) and closed on engine dispose.
 */
import type { ContextSlot, EngineContext } from '../core/context';
import type { Embedder } from '../embed/types';
import { StaticModelCache } from '../embed/model-cache';
import type { MemorySearchSettings } from '../config/schema';
import { agentMemorySettings, memoryPathRoots } from './agent-settings';
import type { IndexSyncResult } from '../../../shared/types/search';
import { MemoryIndex } from './memory-index';
import { watchMemory, type MemoryWatcher } from './watcher';
import type { SourceRoots } from './sources';
import type { MemoryPathRoots } from './memory-paths';
import { EngineError } from '../core/errors';

interface Entry {
  key: string;
  index: MemoryIndex;
  embedder: Embedder | null;
  roots: SourceRoots;
}

/**
 * An agent's file watcher. It lives beside the index entry, not inside it: the Memory page
 * must hear of external edits even while the embedder is still loading (seconds for static
 * vectors or a GGUF model) or when the index cannot open at all — before, the watcher started
 * only after the embedder was made, and edits in that window never reached the UI.
 */
interface Watch {
  key: string;
  watcher: Promise<MemoryWatcher | null>;
  /** The watcher is ready: edits mark the index dirty as they happen. */
  ready: boolean;
}

/** The engine's static models (embed/model-cache.ts), shared by its indexes, released by its `dispose`. */
export const STATIC_MODELS: ContextSlot<StaticModelCache> = {
  name: 'static models',
  create: () => new StaticModelCache(),
  dispose: (cache) => cache.clear(),
};

type Factory = (
  settings: MemorySearchSettings,
  opts: { agentId: string; modelsDir: string; env: NodeJS.ProcessEnv; warn?: (message: string) => void; staticModels?: StaticModelCache },
) => Promise<Embedder | null>;

/** The embedder factory of embed/ (SPEC §6 auto order), loaded only when an index is opened. */
async function defaultFactory(): Promise<Factory | null> {
  // A literal specifier, so bundlers (the CLI bundle, Electron main) include the factory;
  // a computed one was left unresolved and the bundled CLI silently ran FTS-only.
  try {
    const mod = (await import('../embed/factory')) as { createEmbedderForSettings?: Factory };
    return mod.createEmbedderForSettings ?? null;
  } catch {
    return null;
  }
}

export interface SyncRequest {
  force?: boolean | undefined;
  signal?: AbortSignal | undefined;
  opId?: string | undefined;
}

export class MemoryRegistry {
  private entries = new Map<string, Promise<Entry>>();
  private watches = new Map<string, Watch>();
  /** Agents whose files changed while no index entry existed: the entry opens dirty. */
  private pendingDirty = new Set<string>();
  private disposed = false;

  constructor(private readonly ctx: EngineContext) {}

  private settingsCache = new WeakMap<object, Map<string, MemorySearchSettings>>();

  /**
   * The agent's memorySearch settings: `memory.search`, overridden key by key
   * by `agents.entries.<id>.memory.search` (OpenClaw's per-agent override). An invalid override is
   * reported and ignored.
   */
  settings(agentId: string): MemorySearchSettings {
    const loaded = this.ctx.config();
    let byAgent = this.settingsCache.get(loaded);
    if (!byAgent) this.settingsCache.set(loaded, (byAgent = new Map()));
    const cached = byAgent.get(agentId);
    if (cached) return cached;
    const { settings: out, invalidOverride } = agentMemorySettings(this.ctx, agentId);
    if (invalidOverride) this.ctx.warn(invalidOverride);
    byAgent.set(agentId, out);
    return out;
  }

  /** Workspace and extra paths for the memory path rules. */
  pathRoots(agentId: string): MemoryPathRoots {
    return memoryPathRoots(this.ctx, agentId, this.settings(agentId));
  }

  private rootsFor(agentId: string, s: MemorySearchSettings): SourceRoots {
    const p = this.ctx.paths(agentId);
    return { workspace: p.workspace, sessionsDir: p.sessionsDir, extraPaths: s.extraPaths, sources: s.sources, storeSessions: () => this.ctx.storeSessionSources(agentId) };
  }

  private async makeEmbedder(agentId: string, s: MemorySearchSettings): Promise<Embedder | null> {
    if (s.provider === 'none' || !s.enabled) return null;
    const opts = {
      agentId,
      modelsDir: this.ctx.paths(agentId).modelsDir,
      env: this.ctx.env(),
      warn: (m: string) => this.ctx.warn(m),
      // One static model per engine, whatever the number of agents; gone with its dispose.
      staticModels: this.ctx.member(STATIC_MODELS),
    };
    const factory = this.ctx.deps.createEmbedder ?? (await defaultFactory());
    if (!factory) {
      this.ctx.warn('memory search: no embedder is available yet; search runs keyword-only (FTS)');
      return null;
    }
    try {
      return await factory(s, opts);
    } catch (err) {
      this.ctx.warn(`memory search: the embedder could not start (${(err as Error).message}); search runs keyword-only (FTS)`);
      return null;
    }
  }

  /** The agent's index, opened (or re-opened after a settings change) on demand. */
  async get(agentId: string): Promise<MemoryIndex> {
    return (await this.entry(agentId)).index;
  }

  private async entry(agentId: string): Promise<Entry> {
    for (;;) {
      if (this.disposed) throw new EngineError('unavailable', 'the engine is shutting down');
      const s = this.settings(agentId);
      const key = JSON.stringify([s, this.ctx.paths(agentId)]);
      const existing = this.entries.get(agentId);
      if (!existing) return this.open(agentId, s, key, null);
      const e = await existing.catch(() => null);
      // Another caller replaced the entry while we waited (two callers after a settings
      // change): use theirs. Before, both closed the old index and both opened a new one,
      // and the handle of the first was never closed.
      if (this.entries.get(agentId) !== existing) continue;
      if (e && e.key === key) return e;
      return this.open(agentId, s, key, e);
    }
  }

  /** Open the agent's index (after closing `old`), registered synchronously so concurrent callers share it. */
  private open(agentId: string, s: MemorySearchSettings, key: string, old: Entry | null): Promise<Entry> {
    const made = (async (): Promise<Entry> => {
      if (old) await this.close(old);
      const embedder = await this.makeEmbedder(agentId, s);
      const roots = this.rootsFor(agentId, s);
      const index = MemoryIndex.open({
        agentId,
        indexFile: this.ctx.paths(agentId).indexFile,
        roots,
        settings: s,
        embedder,
        loadVec: this.ctx.deps.loadSqliteVec,
        ...(this.ctx.deps.writeWorker ? { writeWorker: this.ctx.deps.writeWorker } : {}),
        warn: (m) => this.ctx.warn(m),
        now: () => this.ctx.now(),
      });
      if (this.pendingDirty.delete(agentId)) index.markDirty();
      this.ctx.events.emit('db.ready', { agentId });
      return { key, index, embedder, roots };
    })();
    this.entries.set(agentId, made);
    made.catch(() => {
      if (this.entries.get(agentId) === made) this.entries.delete(agentId);
    });
    return made;
  }

  /** Sync with `index.progress` (throttled) and `index.idle` events. */
  async sync(agentId: string, req: SyncRequest = {}): Promise<IndexSyncResult> {
    const index = await this.get(agentId);
    let last = 0;
    let lastPhase = '';
    try {
      const result = await index.sync({
        force: req.force,
        signal: req.signal,
        onProgress: (p) => {
          const t = performance.now();
          if (p.phase === lastPhase && p.phase !== 'done' && t - last < 100) return;
          last = t;
          lastPhase = p.phase;
          this.ctx.events.emit('index.progress', { agentId, opId: req.opId, ...p });
        },
      });
      this.ctx.events.emit('index.idle', { agentId, result });
      return result;
    } catch (err) {
      this.ctx.events.emit('index.idle', { agentId, result: null, error: (err as Error).message });
      throw err;
    }
  }

  /** Mark the agent's index dirty, or remember to when it opens. */
  private markDirty(agentId: string): void {
    const e = this.entries.get(agentId);
    if (!e) {
      this.pendingDirty.add(agentId);
      return;
    }
    e.then(
      (x) => x.index.markDirty(),
      () => this.pendingDirty.add(agentId),
    );
  }

  /**
   * Start the agent's watcher once (when `sync.watch` is on; restarted when the watched
   * roots change): edits mark the index dirty, emit `memory.changed`, and trigger a sync.
   * Needs no embedder and no index. Resolves when the watcher is ready.
   */
  async watch(agentId: string): Promise<void> {
    if (this.disposed) throw new EngineError('unavailable', 'the engine is shutting down');
    const s = this.settings(agentId);
    const existing = this.watches.get(agentId);
    if (!s.sync.watch) {
      if (existing) {
        this.watches.delete(agentId);
        await (await existing.watcher)?.dispose();
      }
      return;
    }
    const roots = this.rootsFor(agentId, s);
    const key = JSON.stringify([roots, s.sync.watchDebounceMs]);
    let w = existing;
    if (!w || w.key !== key) {
      if (existing) {
        existing.watcher.then((x) => x?.dispose()).catch((err: Error) => this.ctx.warn(`memory watcher: could not stop the old watcher (${err.message})`));
      }
      const made: Watch = {
        key,
        ready: false,
        watcher: watchMemory(
          roots,
          s.sync.watchDebounceMs,
          (paths) => {
            this.markDirty(agentId);
            this.ctx.events.emit('memory.changed', { agentId, paths });
            this.sync(agentId).catch(() => {
              // reported through index.idle {error}
            });
          },
          () => this.markDirty(agentId),
        ).catch((err: Error) => {
          this.ctx.warn(`memory watcher could not start (${err.message}); changes are picked up before each search`);
          return null;
        }),
      };
      this.watches.set(agentId, made);
      w = made;
    }
    const watcher = await w.watcher;
    await watcher?.ready;
    if (watcher) w.ready = true;
  }

  /**
   * Whether the agent's watcher is up: then every edit has marked the index dirty already
   * and a search need not stat every source file first (measured warm: ≈ 10 ms at 900
   * files, ≈ 30 ms at 3,600 — on each keystroke of search-as-you-type).
   */
  async isWatched(agentId: string): Promise<boolean> {
    const w = this.watches.get(agentId);
    if (!w?.ready) return false;
    // Roots changed since the watcher started: it may not cover them yet.
    return w.key === JSON.stringify([this.rootsFor(agentId, this.settings(agentId)), this.settings(agentId).sync.watchDebounceMs]);
  }

  /** A memory file was written through the engine: mark dirty and tell clients. */
  notifyChanged(agentId: string, paths: string[]): void {
    // markDirty handles an index that fails to open: a bare `.then` here left that rejection
    // with no handler, and Node ends a process on one (`cairn serve`, `cairn mcp`).
    this.markDirty(agentId);
    this.ctx.events.emit('memory.changed', { agentId, paths });
  }

  private async close(e: Entry): Promise<void> {
    await e.index.dispose();
    await e.embedder?.dispose();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const watches = [...this.watches.values()];
    this.watches.clear();
    for (const w of watches) await (await w.watcher)?.dispose();
    const all = [...this.entries.values()];
    this.entries.clear();
    for (const p of all) {
      try {
        await this.close(await p);
      } catch {
        // an entry that failed to open has nothing to close
      }
    }
  }
}

const registrySlot: ContextSlot<MemoryRegistry> = {
  name: 'memory indexes',
  create: (ctx) => new MemoryRegistry(ctx),
  dispose: (r) => r.dispose(),
};

/** The engine's one registry (a context member: created on first use, closed with the engine). */
export function memoryRegistry(ctx: EngineContext): MemoryRegistry {
  return ctx.member(registrySlot);
}
