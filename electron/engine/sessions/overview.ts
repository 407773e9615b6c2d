/**
 * The `sessions.overview` handler: reads a transcript and returns its token life (see
 * token-series.ts) with the thresholds the chart draws, computed from the config:
 * flush at window − reserveTokensFloor − memoryFlush.softThresholdTokens (SPEC §5),
 * compaction above window − max(reserveTokens, reserveTokensFloor) (SPEC §4).
 */
import type { SessionOverview } from '../../../shared/types/session-view';
import { contextBudget } from '../compaction/thresholds';
import type { EngineContext } from '../context';
import type { Handlers } from '../rpc/dispatcher';
import { resolveSession } from './resolve';
import { tokenLife } from './token-series';

/** Build the overview of one session. */
export function sessionOverview(ctx: EngineContext, sessionId: string, agentId?: string): SessionOverview {
  const s = resolveSession(ctx, sessionId, agentId);
  const t = s.load();
  const defaults = ctx.config().config.agents.defaults;
  const contextWindow = s.contextWindow;
  const { points, compactions } = tokenLife(t);
  return {
    sessionId,
    points,
    compactions,
    contextWindow,
    flushThreshold: Math.max(0, contextWindow - defaults.compaction.reserveTokensFloor - defaults.compaction.memoryFlush.softThresholdTokens),
    compactionThreshold: contextBudget(contextWindow, defaults.compaction),
  };
}

export function sessionViewHandlers(ctx: EngineContext): Pick<Handlers, 'sessions.overview'> {
  return {
    'sessions.overview': (req) => sessionOverview(ctx, req.sessionId, req.agentId),
  };
}
