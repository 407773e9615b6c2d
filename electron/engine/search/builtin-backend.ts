/**
 * The built-in search backend: the agent's own SQLite index, synced first when it is missing
 * or dirty (SPEC §6 sync.onSearch), then searched by the hybrid pipeline.
 */
import type { SearchResponse } from '../../../shared/types/search';
import type { MemoryRegistry } from '../index/registry';
import type { SearchBackend, SearchRequest } from './backend';
import { searchIndex } from './index-search';

/** The built-in backend over the engine's memory indexes (`backend: "builtin"` in every response). */
export function builtinSearchBackend(reg: MemoryRegistry): SearchBackend {
  return { search: async (agentId, req) => ({ ...(await builtinSearch(reg, agentId, req)), backend: 'builtin' }) };
}

async function builtinSearch(reg: MemoryRegistry, agentId: string, req: SearchRequest): Promise<SearchResponse> {
  const index = await reg.get(agentId);
  const warnings: string[] = [];
  const s = reg.settings(agentId);
  // Not `status().exists`: status() runs its own dirty check (a stat of every file), and
  // isDirty() below runs another — measured 10–20 ms CPU each on a 900-file workspace.
  const missing = !index.built;
  // With the watcher up (long-lived clients), edits have marked the index dirty already.
  if (missing || (s.sync.onSearch && (await index.isDirty({ stat: !(await reg.isWatched(agentId)) })))) {
    try {
      await reg.sync(agentId, { signal: req.signal });
    } catch (err) {
      if (req.signal?.aborted || missing) throw err;
      warnings.push(`the index could not be updated (${(err as Error).message}); results may be stale`);
    }
  }
  const res = await searchIndex(index, req);
  return { ...res, warnings: [...warnings, ...res.warnings] };
}
