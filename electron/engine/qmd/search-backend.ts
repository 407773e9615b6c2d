/**
 * The search-backend seam (SPEC §9): {@link searchViaBackend}, which search/handlers.ts's
 * `searchWithSync` hands its built-in search to (see backend.ts). Its own module, so that a
 * built-in search — every `cairn search` — does not load the QMD manager and
 * node:child_process: they are imported on the first search with `memory.backend: "qmd"`.
 */
import type { EngineContext } from '../context';
import type { SearchResponse } from '../../../shared/types/search';
import { memoryRegistry } from '../index/registry';
import type { SearchRequest } from '../search/service';

/** The parts of a search request the QMD backend looks at: the built-in search's request. */
export type BackendSearchRequest = SearchRequest;

/**
 * Run a search on the configured backend. `builtin` runs the built-in search (sync + index
 * search); it is called when the backend is builtin, for requests QMD cannot serve (date
 * filters), and whenever QMD fails.
 */
export async function searchViaBackend(
  ctx: EngineContext,
  agentId: string,
  req: BackendSearchRequest,
  builtin: () => Promise<SearchResponse>,
): Promise<SearchResponse> {
  const config = ctx.config().config;
  if (config.memory.backend !== 'qmd') return { ...(await builtin()), backend: 'builtin' };

  const fallback = async (why: string, opts: { status: boolean }): Promise<SearchResponse> => {
    if (opts.status) ctx.warn(why);
    const res = await builtin();
    return { ...res, warnings: [why, ...res.warnings], backend: 'builtin' };
  };

  if (req.since || req.before) {
    return fallback('QMD has no date filters: this search (--since/--before) was served by the built-in index', { status: false });
  }
  const [{ qmdManager }, { QmdError }, { exportSessions }] = await Promise.all([import('./registry'), import('./run'), import('./backend')]);
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
