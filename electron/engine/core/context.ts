/**
 * The engine context: what every domain module of the engine shares — the state dir, the
 * config (reloaded after `config.set`; a hand edit of the file is read at the next start),
 * per-agent paths, the event bus, injected dependencies and resources to dispose. Created once
 * per engine by the engine's root (assemble.ts `assembleContext`, which `createEngine()` and the
 * CLI's light context both call): that root passes in what crosses the floors.
 */
import { loadConfig, type LoadedConfig } from '../config/load';
import {
  agentPaths,
  listAgentIds,
  openStateDir,
  setStateDirWritable,
  DEFAULT_AGENT_ID,
  type AgentPaths,
  type StateDirInfo,
} from '../config/state-dir';
import type { EventBus } from '../rpc/events';
import { EngineError } from '../base/errors';
import type { MemorySearchSettings } from '../config/schema';
import type { Embedder } from './embedder';
import type { SearchBackend } from './search-backend';
import type { SourceFile, StoreSessionSources } from './session-sources';
import type { LLM } from './llm';

/**
 * Dependencies passed in rather than imported as globals, so tests (and the CLI) can give
 * deterministic ones. Each domain adds the optional factories it needs here.
 */
export interface EngineDeps {
  /** Clock; tests pin it. */
  now?: () => Date;
  /** Environment for API keys etc.; defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * The memory-search embedder for an agent (null = FTS-only). Tests inject a deterministic
   * one; when absent the engine uses embed/factory.ts (SPEC §6 auto order).
   */
  createEmbedder?: (
    settings: MemorySearchSettings,
    opts: { agentId: string; modelsDir: string; env: NodeJS.ProcessEnv },
  ) => Promise<Embedder | null>;
  /** Load sqlite-vec into a handle (tests pass one that throws, to exercise the fallback). */
  loadSqliteVec?: (db: import('better-sqlite3').Database) => void;
  /**
   * The chat model (undefined = none). Tests inject deterministic models; when absent the
   * engine builds one from `cairn.llm` (llm/service.ts defaultCreateLlm).
   */
  createLlm?: (ctx: EngineContext) => LLM | undefined;
  /**
   * Hand a file to the system (desktop app only: Electron's shell): `editor` opens it with
   * the default app, `folder` reveals it in the file manager. Absent under `cairn serve`.
   */
  openPath?: (absPath: string, how: 'editor' | 'folder') => Promise<void>;
  /**
   * Serve another state dir from now on (the host swaps the engine: engine/host.ts); absent
   * in a one-shot CLI engine, where `state.open` and `demo.open` answer `unavailable`.
   */
  switchStateDir?: (dir: string) => Promise<import('../../../shared/contract/state-info').StateInfo>;
  /**
   * Where the recommended chat models are downloaded from instead of Hugging Face (a URL
   * laid out like huggingface.co: `<base>/<user>/<repo>/resolve/main/<file>`); tests serve one locally.
   */
  modelDownloadBaseUrl?: string;
  /**
   * Timers of scheduled background work (QMD's refresh schedule and start-up delay); tests
   * pass manual ones and fire them without waiting. Default: unref'd setTimeout.
   */
  timers?: import('../util/timers').Timers;
  /** Where index syncs make their SQLite writes (index/write-client.ts; default `auto`); tests and benchmarks force a side. */
  writeWorker?: 'auto' | 'on' | 'off';
  /**
   * Where `cairn openclaw-bridge` holds a request before its work (openclaw/bridge.ts): tests
   * make a slow Cairn (`recall`, `search`, `get`) or a warm-up that does not end (`warm-up`).
   * Resolves when the work may go on, or when `signal` aborts.
   */
  openclawBridgePause?: (at: 'recall' | 'search' | 'get' | 'warm-up', signal: AbortSignal) => Promise<void>;
}

/**
 * A per-engine member (an index registry, a model, a cache): made from the context on first
 * use, held by it, and disposed by `dispose()` with the rest (reverse order of creation).
 * Domains declare one as a module constant and reach the value through `ctx.member(slot)`,
 * so the state lives on the context instead of in a module-level WeakMap that outlived it.
 */
export interface ContextSlot<T> {
  /** Named in the error when a disposed context is asked for the member. */
  readonly name: string;
  create(ctx: EngineContext): T;
  dispose?(value: T): void | Promise<void>;
}

export interface EngineContext {
  readonly stateDir: string;
  readonly version: string;
  readonly events: EventBus;
  readonly deps: EngineDeps;
  now(): Date;
  /** The environment (API keys, data dir, HOME): `deps.env` when injected, else process.env. */
  env(): NodeJS.ProcessEnv;
  state(): StateDirInfo;
  setWritable(writable: boolean): StateDirInfo;
  /** Throws a `read_only` error naming `what` when the state dir is read-only. */
  assertWritable(what: string): void;
  config(): LoadedConfig;
  reloadConfig(): LoadedConfig;
  paths(agentId?: string): AgentPaths;
  agents(): string[];
  /** The agent a request names (the default agent when it names none), checked against `agents()`. */
  agentId(requested: string | undefined): string;
  /**
   * The search backend every search entry point calls (built-in, or QMD with fall-back),
   * chosen where the engine is assembled (search-backend.ts, passed to `createContext`).
   */
  searchBackend(): SearchBackend;
  /**
   * The sessions the index lists beyond the agent's JSONL files (OpenClaw's SQLite store),
   * provided where the engine is assembled (assemble.ts). A context made without them
   * throws rather than index without them: a sync would delete those sessions from the index.
   */
  storeSessionSources(agentId: string): Promise<SourceFile[]>;
  /** Record a warning for Status and emit it as an `engine.warning` event (once per message). */
  warn(message: string): void;
  warnings(): string[];
  /** The context's member for `slot`, made on first use (see {@link ContextSlot}); throws once disposed. */
  member<T>(slot: ContextSlot<T>): T;
  /** Register cleanup, run in reverse order on dispose. */
  onDispose(fn: () => void | Promise<void>): void;
  dispose(): Promise<void>;
}

/** What the root passed in for the seams, each made once; a seam it did not pass throws when used. */
function wiredSeams(opts: {
  searchBackend?: ((ctx: EngineContext) => SearchBackend) | undefined;
  storeSessionSources?: ((ctx: EngineContext) => StoreSessionSources) | undefined;
}): { searchBackend(ctx: EngineContext): SearchBackend; storeSessionSources(ctx: EngineContext): StoreSessionSources } {
  let search: SearchBackend | undefined;
  let sessions: StoreSessionSources | undefined;
  const missing = (what: string) => new Error(`this engine context was created without ${what}: make it with assembleContext() (electron/engine/assemble.ts)`);
  return {
    searchBackend(ctx) {
      if (!opts.searchBackend) throw missing('a search backend');
      return (search ??= opts.searchBackend(ctx));
    },
    storeSessionSources(ctx) {
      if (!opts.storeSessionSources) return () => Promise.reject(missing('session sources'));
      return (sessions ??= opts.storeSessionSources(ctx));
    },
  };
}

/**
 * `create`: make the state dir when it does not exist (default true: the app's first run,
 * tests); the CLI passes false for a `--state-dir` it was not told to `--init`.
 */
export function createContext(opts: {
  stateDir: string;
  version: string;
  events: EventBus;
  deps?: EngineDeps;
  create?: boolean;
  /** Makes the search backend (electron/engine/search-backend.ts); passed in because domains below the root may not import it. */
  searchBackend?: (ctx: EngineContext) => SearchBackend;
  /** Lists the store sessions for the index (assemble.ts); passed in because the index may not import the sessions layer. */
  storeSessionSources?: (ctx: EngineContext) => StoreSessionSources;
}): EngineContext {
  const deps = opts.deps ?? {};
  const env = deps.env ?? process.env;
  let info = openStateDir(opts.stateDir, { create: opts.create ?? true, env });
  let loaded = loadConfig(opts.stateDir, info.settingsDir, env);
  const warnings: string[] = [];
  const disposers: (() => void | Promise<void>)[] = [];
  const members = new Map<ContextSlot<unknown>, unknown>();
  let disposed = false;
  const seam = wiredSeams(opts);
  const ctx: EngineContext = {
    stateDir: opts.stateDir,
    version: opts.version,
    events: opts.events,
    deps,
    now: () => (deps.now ? deps.now() : new Date()),
    env: () => env,
    state: () => info,
    setWritable(writable) {
      info = setStateDirWritable(opts.stateDir, writable, env);
      return info;
    },
    assertWritable(what) {
      if (!info.writable) {
        throw new EngineError(
          'read_only',
          `${what}: the state dir ${opts.stateDir} is read-only (Cairn did not create it); turn writing on in Settings or run with a state dir Cairn created`,
        );
      }
    },
    config: () => loaded,
    reloadConfig() {
      loaded = loadConfig(opts.stateDir, info.settingsDir, env);
      opts.events.emit('config.changed', { warnings: loaded.warnings });
      return loaded;
    },
    paths(agentId = DEFAULT_AGENT_ID) {
      const p = agentPaths(opts.stateDir, loaded.config, agentId, info, { env });
      if (p.workspaceWarning) ctx.warn(p.workspaceWarning);
      return p;
    },
    agents: () => listAgentIds(opts.stateDir, loaded.config),
    agentId(requested) {
      const id = requested ?? DEFAULT_AGENT_ID;
      const known = listAgentIds(opts.stateDir, loaded.config);
      if (requested && !known.includes(id)) throw new EngineError('not_found', `unknown agent ${JSON.stringify(id)} (known: ${known.join(', ')})`);
      return id;
    },
    searchBackend: () => seam.searchBackend(ctx),
    storeSessionSources: (agentId) => seam.storeSessionSources(ctx)(agentId),
    warn(message) {
      // A warning already held is not news: emitting it again made Status reload on every
      // repeat (a watcher or a config warning can recur on each call).
      if (warnings.includes(message)) return;
      warnings.push(message);
      opts.events.emit('engine.warning', { message });
    },
    warnings: () => [...warnings],
    member<T>(slot: ContextSlot<T>): T {
      if (members.has(slot as ContextSlot<unknown>)) return members.get(slot as ContextSlot<unknown>) as T;
      // A member made after dispose() would never be disposed (a leaked handle or timer).
      if (disposed) throw new EngineError('unavailable', `${slot.name}: the engine is shutting down`);
      const value = slot.create(ctx);
      members.set(slot as ContextSlot<unknown>, value);
      disposers.push(async () => {
        members.delete(slot as ContextSlot<unknown>);
        await slot.dispose?.(value);
      });
      return value;
    },
    onDispose(fn) {
      disposers.push(fn);
    },
    async dispose() {
      disposed = true;
      while (disposers.length) {
        const fn = disposers.pop();
        try {
          await fn?.();
        } catch (err) {
          console.error('cairn: error while shutting down:', err);
        }
      }
    },
  };
  return ctx;
}
