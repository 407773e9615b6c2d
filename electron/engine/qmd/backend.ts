/**
 * {@link exportSessions}, for the turn loop and compaction to call after they change a
 * transcript: QMD's sessions collection is a Markdown export of the transcripts. QMD as a
 * search backend (with its fall-back to the built-in index) is qmd/search-backend.ts,
 * chosen in electron/engine/search-backend.ts.
 */
import type { EngineContext } from '../core/context';
import { qmdHome } from './home';
import { qmdManager } from './registry';
import { exportTranscripts, type ExportResult } from './sessions-export';

/**
 * Export the agent's session transcripts as Markdown for QMD's sessions collection and,
 * when something changed, refresh QMD. Call it after each new turn and after compaction:
 * it is idempotent, and cheap when nothing changed (a stat per transcript). Returns null
 * (doing nothing) unless the backend is qmd with `memory.qmd.sessions.enabled`.
 */
export function exportSessions(ctx: EngineContext, agentId: string): ExportResult | null {
  const q = ctx.config().config.memory;
  if (q.backend !== 'qmd' || !q.qmd.sessions.enabled) return null;
  const res = exportTranscripts(ctx.paths(agentId).sessionsDir, qmdHome(ctx.stateDir, agentId, ctx.state().cairnDir));
  if (res.written || res.removed) qmdManager(ctx, agentId).refreshSoon();
  return res;
}
