/**
 * The `sessions.overview` handler: reads a transcript and returns its token life (see
 * token-series.ts) with the thresholds the chart draws, computed from the config:
 * flush at window − reserveTokensFloor − memoryFlush.softThresholdTokens (SPEC §5),
 * compaction above window − max(reserveTokens, reserveTokensFloor) (SPEC §4).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SessionOverview } from '../../../shared/types/session-view';
import { contextBudget } from '../compaction/thresholds';
import type { EngineContext } from '../context';
import { EngineError, type Handlers } from '../rpc/dispatcher';
import { readTranscriptAsync } from '../transcript/read';
import { findSessionEntry, readSessionIndex } from '../transcript/sessions-index';
import { tokenLife } from './token-series';

/** The transcript of `sessionId`: `<sessionsDir>/<id>.jsonl`, else the index's file name in that dir. */
function transcriptFile(ctx: EngineContext, sessionId: string, agentId?: string): { file: string; contextTokens?: number } {
  const paths = ctx.paths(agentId);
  const entry = findSessionEntry(readSessionIndex(paths.sessionsIndex), sessionId)?.entry;
  const direct = path.join(paths.sessionsDir, `${sessionId}.jsonl`);
  const named = entry?.sessionFile ? path.join(paths.sessionsDir, path.basename(entry.sessionFile)) : undefined;
  const file = fs.existsSync(direct) ? direct : named && fs.existsSync(named) ? named : undefined;
  if (!file) throw new EngineError('not_found', `no transcript for session ${sessionId} in ${paths.sessionsDir}`);
  return { file, ...(typeof entry?.contextTokens === 'number' ? { contextTokens: entry.contextTokens } : {}) };
}

/** Build the overview of one session. */
export async function sessionOverview(ctx: EngineContext, sessionId: string, agentId?: string): Promise<SessionOverview> {
  const { file, contextTokens } = transcriptFile(ctx, sessionId, agentId);
  const t = await readTranscriptAsync(file);
  const cfg = ctx.config().config;
  const defaults = cfg.agents.defaults;
  const contextWindow = cfg.cairn.llm.contextWindow ?? contextTokens ?? defaults.contextTokens;
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
