/**
 * Search results and memory files with the provenance OpenClaw recorded for them
 * (provenance.ts): wraps the search handlers' `search.query` and `memory.read`. The agent
 * store is read once per change (cached by its size/mtime), so a search adds a few stats.
 */
import type { SearchResponse } from '../../../shared/types/search';
import type { ContextSlot, EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { snapshotDirFor } from '../sessions/store';
import { lineProvenance, provenanceCache, rangeProvenance, storeProvenance, type ProvenanceCache } from './provenance';

type Wrapped = Pick<Handlers, 'search.query' | 'memory.read'>;

/** The stores and files read, kept per engine and dropped with it. */
const cacheSlot: ContextSlot<ProvenanceCache> = {
  name: 'OpenClaw provenance',
  create: () => provenanceCache(),
  dispose: (c) => {
    c.stores.clear();
    c.files.clear();
  },
};

function storeOf(ctx: EngineContext, requested?: string) {
  const agentId = ctx.agentId(requested);
  const cache = ctx.member(cacheSlot);
  return { cache, workspace: ctx.paths(agentId).workspace, store: storeProvenance(cache, ctx.stateDir, agentId, snapshotDirFor(ctx, agentId)) };
}

/** `res` with the provenance OpenClaw recorded on each memory result (`cairn search` calls it too). */
export function addProvenance<R extends SearchResponse>(ctx: EngineContext, agentId: string | undefined, res: R): R {
  const s = storeOf(ctx, agentId);
  if (s.store.chunks.size === 0 && s.store.origins.size === 0) return res;
  const results = res.results.map((r) => {
    if (r.source !== 'memory') return r;
    const provenance = rangeProvenance(s.cache, s.store, s.workspace, r.path, r.startLine, r.endLine);
    return provenance ? { ...r, provenance } : r;
  });
  return { ...res, results };
}

/** `h` with OpenClaw's recorded provenance added to each result and each memory file read. */
export function withProvenance<T extends Wrapped>(ctx: EngineContext, h: T): T {
  return {
    ...h,
    'search.query': async (req, hc) => addProvenance(ctx, req.agentId, await h['search.query'](req, hc)),
    'memory.read': async (req, hc) => {
      const f = await h['memory.read'](req, hc);
      const s = storeOf(ctx, req.agentId);
      // A page: the whole file's ranges, on the first page only (their lines count from the file's start).
      const paged = f.offset !== undefined;
      if (paged && f.offset !== 0) return f;
      const provenance = lineProvenance(s.cache, s.store, s.workspace, f.path, paged ? undefined : f.text);
      return provenance.length ? { ...f, provenance } : f;
    },
  };
}
