/**
 * Contract handlers of memory search, the index and the memory browser: request → the
 * search backend or the agent's index, nothing more (the search itself is
 * builtin-backend.ts / qmd/search-backend.ts behind core/search-backend.ts). Heavy modules
 * (SQLite, sqlite-vec, the embedder, chokidar) are imported on first use, so the engine
 * starts fast. The first call from a long-lived client starts the agent's file watcher.
 */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import type { MemoryRegistry } from '../index/registry';
import { lazy } from '../util/lazy';
import { MEMORY_PAGE_MAX_BYTES } from '../../../shared/contract/search';

type SearchChannels = 'search.query' | 'index.status' | 'index.sync' | 'memory.list' | 'memory.read' | 'memory.write';

/** The handlers of `SearchChannels`; searches go to `ctx.searchBackend()` (chosen in search-backend.ts). */
export function searchHandlers(ctx: EngineContext): Pick<Handlers, SearchChannels> {
  // Loaded on first use; a failed load is tried again by the next call (util/lazy.ts).
  const reg = lazy(() => import('../index/registry').then((m) => m.memoryRegistry(ctx)));
  const registry = () => reg.get();
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
        return ctx.searchBackend().search(agentId, { ...req, signal });
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
        return { files: await listMemoryFiles(reg.pathRoots(agentId)) };
      })(),
    'memory.read': (req) =>
      (async () => {
        const agentId = ctx.agentId(req.agentId);
        // Only the path rules: not the registry, whose first import loads SQLite and the embedder.
        const [{ readMemoryFile, readMemoryPage }, { memoryPathRoots }, { lineAnnotations }] = await Promise.all([import('../index/memory-paths'), import('../index/agent-settings'), import('../index/annotations')]);
        const roots = memoryPathRoots(ctx, agentId);
        if (req.offset !== undefined || req.limit !== undefined) {
          const page = readMemoryPage(roots, req.path, req.offset ?? 0, req.limit ?? MEMORY_PAGE_MAX_BYTES);
          const first = (req.line ?? 1) - 1;
          const annotations = lineAnnotations(page.text, page.path).map((a) => ({ ...a, line: a.line + first }));
          return { ...page, ...(annotations.length ? { annotations } : {}) };
        }
        const f = readMemoryFile(roots, req.path);
        const annotations = lineAnnotations(f.text, f.path);
        return { path: f.path, text: f.text, size: f.size, mtime: f.mtime, ...(annotations.length ? { annotations } : {}) };
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
