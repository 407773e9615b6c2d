/**
 * The search-backend seam (SPEC §9). Every search entry point (the `search.query` handler,
 * `cairn search`, the MCP `memory_search` tool) goes through `searchWithSync` in
 * search/handlers.ts, which hands its built-in search to {@link searchViaBackend}:
 *
 * - `memory.backend: "builtin"` → the built-in index answers (`backend: "builtin"`);
 * - `memory.backend: "qmd"` → QMD answers (`backend: "qmd"`). A missing binary, a non-zero
 *   exit, a timeout or unparseable output → the built-in index answers *that* search, with
 *   a warning in the response and in Status (ctx.warn); QMD is retried after a backoff.
 *
 * Also {@link exportSessions}, for the turn loop and compaction to call after they change a
 * transcript. `searchViaBackend` lives in search-backend.ts (re-exported here), which loads
 * this module and the QMD manager only when the backend is qmd.
 */
import type { EngineContext } from '../context';
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
