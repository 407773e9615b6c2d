/**
 * Search results and memory files with the provenance OpenClaw recorded for them
 * (provenance.ts): wraps the search handlers' `search.query` and `memory.read`. The agent
 * store is read once per change (cached by its size/mtime), so a search adds a few stats.
 */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { snapshotDirFor } from '../sessions/store';
import { lineProvenance, rangeProvenance, storeProvenance } from './provenance';

type Wrapped = Pick<Handlers, 'search.query' | 'memory.read'>;

/** `h` with OpenClaw's recorded provenance added to each result and each memory file read. */
export function withProvenance<T extends Wrapped>(ctx: EngineContext, h: T): T {
  const store = (requested?: string) => {
    const agentId = ctx.agentId(requested);
    return { agentId, workspace: ctx.paths(agentId).workspace, store: storeProvenance(ctx.stateDir, agentId, snapshotDirFor(ctx, agentId)) };
  };
  return {
    ...h,
    'search.query': async (req, hc) => {
      const res = await h['search.query'](req, hc);
      const s = store(req.agentId);
      if (s.store.chunks.size === 0 && s.store.origins.size === 0) return res;
      const results = res.results.map((r) => {
        if (r.source !== 'memory') return r;
        const provenance = rangeProvenance(s.store, s.workspace, r.path, r.startLine, r.endLine);
        return provenance ? { ...r, provenance } : r;
      });
      return { ...res, results };
    },
    'memory.read': async (req, hc) => {
      const f = await h['memory.read'](req, hc);
      const s = store(req.agentId);
      const provenance = lineProvenance(s.store, s.workspace, f.path, f.text);
      return provenance.length ? { ...f, provenance } : f;
    },
  };
}
