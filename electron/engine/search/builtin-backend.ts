/**
 * The built-in search backend: the agent's own SQLite index, synced first when it is missing
 * or dirty (SPEC §6 sync.onSearch), then searched by the hybrid pipeline.
 */
import type { SearchResponse } from '../../../shared/types/search';
import type { MemoryRegistry } from '../index/registry';
import type { SearchBackend, SearchRequest } from '../core/search-backend';
import { searchIndex } from './index-search';
import type { MemoryIndex } from '../index/memory-index';
import { abortError } from '../util/abort';

/** The index's running sync finished, or the search was cancelled (search-as-you-type). */
function untilSettled(index: MemoryIndex, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return index.settled();
  if (signal.aborted) return Promise.reject(abortError(signal, 'search cancelled'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError(signal, 'search cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    void index.settled().then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

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
  const running = missing ? null : index.syncing();
  // An index built otherwise (an older Cairn's schema, another embedder or chunking) is
  // rebuilt — minutes with a real embedder. Its tables stay readable meanwhile: the rebuild
  // starts beside this search, which answers from the old index at once (keyword-only when
  // its vectors cannot be used: index-search.ts), as every later one does until it is done.
  // Not cancelled with this search; a one-shot CLI finishes it before it exits.
  const upgrade = !missing && running === null && s.sync.onSearch && index.needsRebuild();
  if (upgrade) {
    reg.sync(agentId).catch(() => {
      // reported through index.idle {error}; the next search tries again
    });
  }
  if (running === 'rebuild' || upgrade) {
    // A rebuild can take minutes with a real embedder (every chunk re-embedded): the old
    // index answers meanwhile rather than the search queueing behind it.
    warnings.push('the index is being rebuilt: results come from the index as it was before');
    const res = await searchIndex(index, req);
    return { ...res, warnings: [...warnings, ...res.warnings] };
  }
  // A sync under way (the watcher's, after an edit) clears the dirty mark when it starts, so
  // without this the search would answer from the index as it was before the edit it is
  // indexing. An incremental sync embeds only what changed: wait for it.
  if (s.sync.onSearch && running === 'incremental') await untilSettled(index, req.signal);
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
