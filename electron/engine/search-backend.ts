/**
 * Where the engine chooses its search backend (the search-backend seam): `memory.backend` "builtin"
 * → the built-in index answers; "qmd" → QMD answers, falling back to the built-in index
 * (qmd/search-backend.ts). Read at each search, so `config.set memory.backend` takes effect
 * at the next one. A root module, above every floor: it is the one place that knows both
 * backends, so search/ never imports qmd/. `createContext` gets it as its `searchBackend`
 * factory (assemble.ts, the engine's root); everything else calls `ctx.searchBackend()`.
 *
 * Both backends are imported on first use: a built-in search (every `cairn search`) never
 * loads the QMD manager and node:child_process, and creating a context loads no SQLite.
 */
import type { EngineContext } from './core/context';
import type { SearchBackend } from './core/search-backend';
import { lazy } from './util/lazy';

/** The engine's search backend for `ctx`, as configured at each search. */
export function configuredSearchBackend(ctx: EngineContext): SearchBackend {
  // A failed load is tried again by the next search (util/lazy.ts).
  const builtin = lazy(() => Promise.all([import('./index/registry'), import('./search/builtin-backend')]).then(([r, b]) => b.builtinSearchBackend(r.memoryRegistry(ctx))));
  return {
    async search(agentId, req) {
      const local = await builtin.get();
      if (ctx.config().config.memory.backend !== 'qmd') return local.search(agentId, req);
      const { qmdSearchBackend } = await import('./qmd/search-backend');
      return qmdSearchBackend(ctx, local).search(agentId, req);
    },
  };
}
