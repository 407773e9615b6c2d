/**
 * QMD as a search backend (SPEC §9, `memory.backend: "qmd"`), with a fall-back: a missing
 * binary, a non-zero exit, a timeout or unparseable output → the built-in backend answers
 * *that* search, with a warning in the response (and in Status, ctx.warn); QMD is retried
 * after a backoff. Date filters, which QMD lacks, go to the built-in backend too. Chosen by
 * electron/engine/search-backend.ts, which loads this module (and with it the QMD manager
 * and node:child_process) only on the first search with the qmd backend.
 */
import type { EngineContext } from '../core/context';
import type { SearchResponse } from '../../../shared/types/search';
import type { SearchBackend, SearchRequest } from '../core/search-backend';
import { memoryRegistry } from '../index/registry';
import { qmdManager } from './registry';
import { QmdError } from './run';
import { exportSessions } from './backend';

/** QMD answering `agentId`'s searches; `builtin` answers whatever QMD cannot. */
export function qmdSearchBackend(ctx: EngineContext, builtin: SearchBackend): SearchBackend {
  return { search: (agentId, req) => searchViaQmd(ctx, agentId, req, builtin) };
}

async function searchViaQmd(ctx: EngineContext, agentId: string, req: SearchRequest, builtin: SearchBackend): Promise<SearchResponse> {
  const fallback = async (why: string, opts: { status: boolean }): Promise<SearchResponse> => {
    if (opts.status) ctx.warn(why);
    const res = await builtin.search(agentId, req);
    return { ...res, warnings: [why, ...res.warnings], backend: 'builtin' };
  };

  if (req.since || req.before) {
    return fallback('QMD has no date filters: this search (--since/--before) was served by the built-in index', { status: false });
  }
  const mgr = qmdManager(ctx, agentId);
  mgr.start();
  // Transcripts may have changed since the last turn hook: export (a stat per file when
  // nothing did); a change starts a refresh that this search waits for (bounded).
  let exported = false;
  try {
    const r = exportSessions(ctx, agentId);
    exported = Boolean(r && (r.written || r.removed));
  } catch (err) {
    ctx.warn(`QMD session export failed: ${(err as Error).message}`);
  }
  const blocked = mgr.blockedUntil();
  if (blocked) {
    return fallback(
      `QMD is unavailable (${mgr.lastFailure() ?? 'it failed'}); served by the built-in index until QMD is retried at ${new Date(blocked).toISOString()}`,
      { status: false },
    );
  }
  const started = performance.now();
  try {
    const out = await mgr.search({
      query: req.query,
      maxResults: req.maxResults ?? memoryRegistry(ctx).settings(agentId).query.maxResults,
      source: req.source,
      explain: req.explain,
      signal: req.signal,
      waitForRefresh: exported,
    });
    // QMD's scores are on its own scale: only an explicit per-request minScore applies.
    const results = req.minScore === undefined ? out.results : out.results.filter((r) => r.score >= req.minScore!);
    const warnings = [...out.warnings];
    if (req.decay || req.mmr) warnings.push('temporal decay and MMR apply to the built-in index only; QMD ranked these results');
    return { ...out, results, warnings, tookMs: Math.round((performance.now() - started) * 10) / 10, backend: 'qmd' };
  } catch (err) {
    if (req.signal?.aborted) throw err;
    const e = err instanceof QmdError ? err : new QmdError('exit', (err as Error).message);
    if (e.kind === 'busy') return fallback(`${e.message}; served by the built-in index`, { status: false });
    return fallback(`QMD search failed (${e.message}); served by the built-in index`, { status: true });
  }
}
