/**
 * The engine facade: takes its context from the engine's root (assemble.ts, which wires what
 * crosses the floors: search backend, session sources, transcript-change reactions), joins
 * every domain's handlers into the one map the contract demands (a missing channel fails
 * type-checking), and owns shutdown.
 * Plain Node — the same engine runs in Electron's main process, the CLI, the server and tests.
 */
import type { EngineContext, EngineDeps } from './core/context';
import { assembleContext, VERSION as ROOT_VERSION } from './assemble';
import { createDispatcher, type Dispatcher, type Handlers } from './rpc/dispatcher';
import type { EventBus } from './rpc/events';
import { appHandlers } from './app/handlers';
import { sessionsHandlers } from './sessions/handlers';
import { modelsHandlers } from './embed/handlers';
import { llmHandlers } from './llm/handlers';
import { llmLocalHandlers } from './llm/local-handlers';
import { memoryLocateHandlers } from './index/locate-handlers';
import { dreamingHandlers } from './dreaming/handlers';
import { chatHandlers } from './chat/handlers';
import { searchHandlers } from './search/handlers';
import { withProvenance } from './openclaw/provenance-handlers';
import { qmdHandlers } from './qmd/handlers';
import { sessionViewHandlers } from './sessions/overview';
import { stateInfoHandlers } from './app/state-info';
import { memoryNotesHandlers } from './index/note-handlers';
import { tokensHandlers } from './sessions/exact-tokens';
import { openclawHandlers } from './openclaw/handlers';
import { welcomeHandlers } from './app/welcome-handlers';
import { llmRecommendedHandlers } from './llm/recommended';
import { auditHandlers } from './sessions/audit-handlers';
import { openclawRecallHandlers } from './openclaw/recall-handlers';

export interface EngineOptions {
  stateDir: string;
  deps?: EngineDeps;
  /** Create the state dir when it does not exist (default true; the CLI asks for `--init`). */
  create?: boolean;
  /**
   * A context `assembleContext` already made for this state dir (the CLI's light context,
   * when a command then needs the whole engine): the engine is built on it, not beside it.
   */
  context?: EngineContext;
}

export interface Engine {
  readonly ctx: EngineContext;
  readonly events: EventBus;
  readonly handlers: Handlers;
  readonly dispatcher: Dispatcher;
  dispose(): Promise<void>;
}

export const VERSION: string = ROOT_VERSION;

export function createEngine(opts: EngineOptions): Engine {
  const ctx = opts.context ?? assembleContext({ stateDir: opts.stateDir, deps: opts.deps, create: opts.create });
  const events = ctx.events;
  const handlers: Handlers = {
    ...appHandlers(ctx),
    ...sessionsHandlers(ctx),
    ...modelsHandlers(ctx),
    ...llmHandlers(ctx),
    ...llmLocalHandlers(ctx),
    ...memoryLocateHandlers(ctx),
    ...chatHandlers(ctx),
    ...withProvenance(ctx, searchHandlers(ctx)),
    ...qmdHandlers(ctx),
    ...sessionViewHandlers(ctx),
    ...stateInfoHandlers(ctx),
    ...memoryNotesHandlers(ctx),
    ...tokensHandlers(ctx),
    ...openclawHandlers(ctx),
    // The welcome counts the sessions and notes of other dirs through contexts of the same root.
    ...welcomeHandlers(ctx, (dir) => assembleContext({ stateDir: dir, deps: { env: ctx.env() }, create: false })),
    ...llmRecommendedHandlers(ctx),
    ...dreamingHandlers(ctx),
    ...auditHandlers(ctx),
    ...openclawRecallHandlers(ctx),
  };
  const dispatcher = createDispatcher(handlers);
  let disposed = false;
  return {
    ctx,
    events,
    handlers,
    dispatcher,
    async dispose() {
      if (disposed) return;
      disposed = true;
      dispatcher.abortAll();
      await ctx.dispose();
    },
  };
}
