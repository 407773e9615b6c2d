/**
 * The engine facade: builds the context, joins every domain's handlers into the one map the
 * contract demands (a missing channel fails type-checking), and owns shutdown.
 * Plain Node — the same engine runs in Electron's main process, the CLI, the server and tests.
 */
import pkg from '../../package.json' with { type: 'json' };
import { createContext, type EngineContext, type EngineDeps } from './core/context';
import { configuredSearchBackend } from './search-backend';
import { createDispatcher, type Dispatcher, type Handlers } from './rpc/dispatcher';
import { createEventBus, type EventBus } from './rpc/events';
import { appHandlers } from './app/handlers';
import { sessionsHandlers } from './sessions/handlers';
import { modelsHandlers } from './embed/handlers';
import { llmHandlers } from './llm/handlers';
import { llmLocalHandlers } from './llm/local-handlers';
import { memoryLocateHandlers } from './index/locate-handlers';
import { chatHandlers } from './chat/handlers';
import { searchHandlers } from './search/handlers';
import { qmdHandlers } from './qmd/handlers';
import { sessionViewHandlers } from './sessions/overview';
import { stateInfoHandlers } from './app/state-info';
import { memoryNotesHandlers } from './index/note-handlers';
import { tokensHandlers } from './sessions/exact-tokens';
import { openclawHandlers } from './openclaw/handlers';
import { welcomeHandlers } from './app/welcome-handlers';
import { llmRecommendedHandlers } from './llm/recommended';
import { openclawRecallHandlers } from './openclaw/recall-handlers';

export interface EngineOptions {
  stateDir: string;
  deps?: EngineDeps;
  /** Create the state dir when it does not exist (default true; the CLI asks for `--init`). */
  create?: boolean;
}

export interface Engine {
  readonly ctx: EngineContext;
  readonly events: EventBus;
  readonly handlers: Handlers;
  readonly dispatcher: Dispatcher;
  dispose(): Promise<void>;
}

export const VERSION: string = pkg.version;

export function createEngine(opts: EngineOptions): Engine {
  const events = createEventBus();
  const ctx = createContext({ stateDir: opts.stateDir, version: VERSION, events, deps: opts.deps, create: opts.create, searchBackend: configuredSearchBackend });
  const handlers: Handlers = {
    ...appHandlers(ctx),
    ...sessionsHandlers(ctx),
    ...modelsHandlers(ctx),
    ...llmHandlers(ctx),
    ...llmLocalHandlers(ctx),
    ...memoryLocateHandlers(ctx),
    ...chatHandlers(ctx),
    ...searchHandlers(ctx),
    ...qmdHandlers(ctx),
    ...sessionViewHandlers(ctx),
    ...stateInfoHandlers(ctx),
    ...memoryNotesHandlers(ctx),
    ...tokensHandlers(ctx),
    ...openclawHandlers(ctx),
    ...welcomeHandlers(ctx),
    ...llmRecommendedHandlers(ctx),
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
