/**
 * The `sessions.overview` handler: reads a transcript and returns its token life (see
 * token-series.ts) with the thresholds the chart draws, computed from the config:
 * flush at window − reserveTokensFloor − memoryFlush.softThresholdTokens (SPEC §5),
 * compaction above window − max(reserveTokens, reserveTokensFloor) (SPEC §4), both through
 * compaction/thresholds.ts (reserve capped at a quarter of a small window, as OpenClaw).
 */
import type { SessionOverview } from '../../../shared/types/session-view';
import { windowThresholds } from '../compaction/thresholds';
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { loadSoftly } from './load-soft';
import { resolveSession } from './resolve';
import { tokenLife } from './token-series';

/** Build the overview of one session. */
export async function sessionOverview(ctx: EngineContext, sessionId: string, agentId?: string): Promise<SessionOverview> {
  const s = resolveSession(ctx, sessionId, agentId);
  const t = await loadSoftly(ctx, s);
  const defaults = ctx.config().config.agents.defaults;
  const contextWindow = s.contextWindow;
  const { points, compactions } = tokenLife(t);
  const th = windowThresholds(contextWindow, defaults.compaction);
  return {
    sessionId,
    points,
    compactions,
    contextWindow,
    flushThreshold: th.flushAt,
    compactionThreshold: th.compactAt,
  };
}

export function sessionViewHandlers(ctx: EngineContext): Pick<Handlers, 'sessions.overview'> {
  return {
    'sessions.overview': (req) => sessionOverview(ctx, req.sessionId, req.agentId),
  };
}
