/**
 * Contract handlers of memory search, the index and the memory browser. Heavy modules
 * (SQLite, sqlite-vec, the embedder, chokidar) are imported on first use, so the engine
 * starts fast. The first call from a long-lived client starts the agent's file watcher.
 */
import type { EngineContext } from '../context';
import type { Handlers } from '../rpc/dispatcher';
import type { MemoryRegistry } from '../index/registry';
import type { SearchResponse } from '../../../shared/types/search';

type SearchChannels = 'search.query' | 'index.status' | 'index.sync' | 'memory.list' | 'memory.read' | 'memory.write';

/** Search the agent's memory, syncing first when the index is missing or dirty. */
export async function searchWithSync(
  reg: MemoryRegistry,
  agentId: string,
  req: Parameters<import('../index/memory-index').MemoryIndex['search']>[0],
): Promise<SearchResponse> {
  // Backend seam (issue 5, qmd/backend.ts): with memory.backend "qmd" QMD serves the search
  // and any QMD failure falls back to builtinSearch for this search, with a warning;
  // with "builtin" it just runs builtinSearch. Either way the response says which `backend`.
  const { searchViaBackend } = await import('../qmd/search-backend');
  return searchViaBackend(reg.ctx, agentId, req, () => builtinSearch(reg, agentId, req));
}

/** The built-in index's search (sync first when missing or dirty). */
async function builtinSearch(
  reg: MemoryRegistry,
  agentId: string,
  req: Parameters<import('../index/memory-index').MemoryIndex['search']>[0],
): Promise<SearchResponse> {
  const index = await reg.get(agentId);
  const warnings: string[] = [];
  const s = reg.settings(agentId);
  // Not `status().exists`: status() runs its own dirty check (a stat of every file), and
  // isDirty() below runs another — measured 10–20 ms CPU each on a 900-file workspace.
  const missing = !index.built;
  // With the watcher up (long-lived clients), edits have marked the index dirty already.
  if (missing || (s.sync.onSearch && index.isDirty({ stat: !(await reg.isWatched(agentId)) }))) {
    try {
      await reg.sync(agentId, { signal: req.signal });
    } catch (err) {
      if (req.signal?.aborted || missing) throw err;
      warnings.push(`the index could not be updated (${(err as Error).message}); results may be stale`);
    }
  }
  const res = await index.search(req);
  return { ...res, warnings: [...warnings, ...res.warnings] };
}

export function searchHandlers(ctx: EngineContext): Pick<Handlers, SearchChannels> {
  let regP: Promise<MemoryRegistry> | undefined;
  const registry = () => (regP ??= import('../index/registry').then((m) => m.memoryRegistry(ctx)));
  /** A client is here to stay: watch the agent's files (errors become warnings). */
  const watchSoon = (reg: MemoryRegistry, agentId: string) => {
    reg.watch(agentId).catch((err: Error) => ctx.warn(`memory watcher: ${err.message}`));
  };
  return {
    'search.query': (req, { signal }) =>
      (async () => {
        const agentId = ctx.agentId(req.agentId);
        const reg = await registry();
        watchSoon(reg, agentId);
        return searchWithSync(reg, agentId, { ...req, signal });
      })(),
    'index.status': (req) =>
      (async () => {
        const agentId = ctx.agentId(req.agentId);
        const reg = await registry();
        watchSoon(reg, agentId);
        return (await reg.get(agentId)).status();
      })(),
    'index.sync': (req, { signal, opId }) =>
      (async () => {
        const agentId = ctx.agentId(req.agentId);
        const reg = await registry();
        watchSoon(reg, agentId);
        return reg.sync(agentId, { force: req.force, signal, opId });
      })(),
    'memory.list': (req) =>
      (async () => {
        const agentId = ctx.agentId(req.agentId);
        const { listMemoryFiles } = await import('../index/memory-files');
        const reg = await registry();
        watchSoon(reg, agentId);
        return { files: listMemoryFiles(reg.pathRoots(agentId)) };
      })(),
    'memory.read': (req) =>
      (async () => {
        const agentId = ctx.agentId(req.agentId);
        const { readMemoryFile } = await import('../index/memory-paths');
        const reg = await registry();
        const f = readMemoryFile(reg.pathRoots(agentId), req.path);
        return { path: f.path, text: f.text, size: f.size, mtime: f.mtime };
      })(),
    'memory.write': (req) =>
      (async () => {
        const agentId = ctx.agentId(req.agentId);
        ctx.assertWritable(`memory.write ${req.path}`);
        const { writeMemoryFile } = await import('../index/memory-files');
        const reg = await registry();
        const out = writeMemoryFile(reg.pathRoots(agentId), req.path, req.text, req.expectedMtime);
        reg.notifyChanged(agentId, [out.path]);
        return out;
      })(),
  };
}
