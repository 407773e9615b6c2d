/**
 * Contract handlers of the QMD backend (`qmd.status`, `qmd.update`) and its start-up.
 * Importing this module (engine.ts does) also registers the QMD doctor check, so
 * `cairn doctor` and the Status page include it.
 */
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { Handlers } from '../rpc/dispatcher';
import { DEFAULT_AGENT_ID } from '../config/state-dir';
import type { QmdStatus } from '../../../shared/types/qmd';
import { realTimers } from '../util/timers';

/** The managers' module loads SQLite (via the index registry): only on first QMD use. */
const managers = () => import('./registry');

async function status(ctx: EngineContext, agentId: string): Promise<QmdStatus> {
  const { backend, qmd } = ctx.config().config.memory;
  const mgr = backend === 'qmd' ? (await managers()).qmdManager(ctx, agentId) : undefined;
  return { backend, command: qmd.command, searchMode: qmd.searchMode, agent: backend === 'qmd' && mgr ? mgr.status() : null };
}

/**
 * Long-lived hosts (the app, `cairn serve`, `cairn mcp`, `cairn chat`) start the default
 * agent's QMD refresh a few seconds after the engine starts, so the first search does not
 * wait for QMD's first build; one-shot CLI commands are done by then and never start it.
 */
export const AUTOSTART_DELAY_MS = 3_000;

function autostart(ctx: EngineContext): void {
  const timer = (ctx.deps.timers ?? realTimers).set(() => {
    if (ctx.config().config.memory.backend !== 'qmd') return;
    managers()
      .then((m) => m.qmdManager(ctx, DEFAULT_AGENT_ID).start())
      .catch((err: Error) => ctx.warn(`QMD backend could not start: ${err.message}`));
  }, AUTOSTART_DELAY_MS);
  ctx.onDispose(() => timer.cancel());
}

export function qmdHandlers(ctx: EngineContext): Pick<Handlers, 'qmd.status' | 'qmd.update'> {
  autostart(ctx);
  return {
    'qmd.status': (req) => status(ctx, ctx.agentId(req.agentId)),
    'qmd.update': async (req) => {
      const agentId = ctx.agentId(req.agentId);
      if (ctx.config().config.memory.backend !== 'qmd') {
        throw new EngineError('bad_request', 'memory.backend is "builtin": set it to "qmd" to use QMD');
      }
      try {
        // A manual refresh also re-checks QMD's collection list (someone may have edited it).
        await (await managers()).qmdManager(ctx, agentId).maintain({ repair: true });
      } catch (err) {
        throw new EngineError('unavailable', `QMD refresh failed: ${(err as Error).message}`);
      }
      return status(ctx, agentId);
    },
  };
}
