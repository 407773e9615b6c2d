/**
 * The engine's QMD managers, one per agent, created on first use and disposed with the
 * engine (timers stopped, running qmd children killed). Loads the built-in index's
 * registry (SQLite) for the per-agent memorySearch settings: import this module lazily.
 */
import type { ContextSlot, EngineContext } from '../core/context';
import { memoryRegistry } from '../index/registry';
import { wantedCollections } from './collections';
import { qmdHome } from './home';
import { QmdManager } from './manager';

/** The engine's managers by agent: a context member, so they are stopped with the engine. */
const managersSlot: ContextSlot<Map<string, QmdManager>> = {
  name: 'QMD managers',
  create: () => new Map(),
  async dispose(made) {
    const all = [...made.values()];
    made.clear();
    await Promise.all(all.map((m) => m.dispose()));
  },
};

/** The agent's QMD manager (settings and collections are read from the live config). */
export function qmdManager(ctx: EngineContext, agentId: string): QmdManager {
  const map = ctx.member(managersSlot);
  let mgr = map.get(agentId);
  if (!mgr) {
    const home = qmdHome(ctx.stateDir, agentId, ctx.state().cairnDir);
    const qmd = () => ctx.config().config.memory.qmd;
    mgr = new QmdManager({
      home,
      settings: qmd,
      wanted: () =>
        wantedCollections({
          workspace: ctx.paths(agentId).workspace,
          // The agent's memorySearch (memory.search + the agents.entries.<id>.memory.search override), as the built-in index sees it.
          extraPaths: memoryRegistry(ctx).settings(agentId).extraPaths,
          includeDefaultMemory: qmd().includeDefaultMemory,
          sessionsEnabled: qmd().sessions.enabled,
          sessionsExportDir: home.sessionsDir,
        }),
      sessionsDir: ctx.paths(agentId).sessionsDir,
      env: ctx.env(),
      now: () => ctx.now().getTime(),
      timers: ctx.deps.timers,
      warn: (m) => ctx.warn(m),
      active: () => ctx.config().config.memory.backend === 'qmd',
    });
    map.set(agentId, mgr);
  }
  return mgr;
}
