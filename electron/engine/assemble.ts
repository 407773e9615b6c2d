/**
 * The engine's root: the one place that wires across the floors. Every engine context is made
 * here — the full engine's (engine.ts `createEngine`, which adds the contract's handlers on
 * top) and the CLI's light one (cli/runtime.ts `context()`, for `cairn search` and other
 * commands that call engine modules directly) — so fast start-up never means a different
 * engine: both get the same
 *  - search backend (search-backend.ts: built-in, or QMD with fall-back),
 *  - session sources for the index (the agent's JSONL files, listed by index/sources.ts,
 *    plus OpenClaw's SQLite-store sessions from sessions/store/search-sources.ts), and
 *  - reactions to `transcript.changed` (a chat turn or a compaction changed a transcript):
 *    the memory index marks it dirty when the sessions source is on, QMD re-exports the
 *    transcripts when it indexes sessions.
 * Each piece is imported on first use, so making a context loads no SQLite, no QMD and no
 * handler: `cairn search` pays only for what its search touches.
 */
import pkg from '../../package.json' with { type: 'json' };
import { createContext, type EngineContext, type EngineDeps } from './core/context';
import type { TranscriptChangedEvent } from '../../shared/contract/transcript';
import { createEventBus, type EventBus } from './rpc/events';
import { configuredSearchBackend } from './search-backend';
import { lazy, type Lazy } from './util/lazy';

export interface AssembleOptions {
  stateDir: string;
  deps?: EngineDeps | undefined;
  /** Create the state dir when it does not exist (default true; the CLI asks for `--init`). */
  create?: boolean | undefined;
  /** The bus to use (a new one when absent). */
  events?: EventBus | undefined;
}

/** Cairn's version, as every context reports it. */
export const VERSION: string = pkg.version;

const registryModule = lazy(() => import('./index/registry'));
const qmdModule = lazy(() => import('./qmd/backend'));

/** Run `fn` on `mod` now when it is loaded, else once it is; a failure becomes a warning naming `what`. */
function react<T>(ctx: EngineContext, mod: Lazy<T>, what: string, fn: (m: T) => void): void {
  const run = (m: T) => {
    try {
      fn(m);
    } catch (err) {
      ctx.warn(`${what}: ${(err as Error).message}`);
    }
  };
  const m = mod.now();
  if (m) run(m);
  else mod.get().then(run, (err: unknown) => ctx.warn(`${what}: ${(err as Error).message}`));
}

/** What follows a transcript change Cairn made: the index and QMD hear of it. */
function onTranscriptChanged(ctx: EngineContext, e: TranscriptChangedEvent): void {
  react(ctx, registryModule, 'could not mark the memory index dirty after a transcript change', ({ memoryRegistry }) => {
    const reg = memoryRegistry(ctx);
    if (reg.settings(e.agentId).sources.includes('sessions')) reg.notifyChanged(e.agentId, [e.path]);
  });
  // QMD's manager and node:child_process load only when QMD is the backend.
  if (ctx.config().config.memory.backend !== 'qmd') return;
  react(ctx, qmdModule, 'QMD session export failed', ({ exportSessions }) => void exportSessions(ctx, e.agentId));
}

/** The store sessions of an agent for the index (the SQLite store is opened only when the sessions source lists it). */
const storeSessions = (ctx: EngineContext) => async (agentId: string) => (await import('./sessions/store/search-sources')).storeSessionSources(ctx, agentId);

/**
 * An engine context with everything that crosses the floors wired in — and nothing else
 * loaded: the context `createEngine` builds its handlers on, and the one the CLI's fast
 * paths use on their own.
 */
export function assembleContext(opts: AssembleOptions): EngineContext {
  const events = opts.events ?? createEventBus();
  const ctx = createContext({
    stateDir: opts.stateDir,
    version: VERSION,
    events,
    deps: opts.deps,
    create: opts.create,
    searchBackend: configuredSearchBackend,
    storeSessionSources: storeSessions,
  });
  const off = events.on('transcript.changed', (e) => onTranscriptChanged(ctx, e));
  ctx.onDispose(() => void off());
  return ctx;
}
