/**
 * `memory_search` and `memory_get` for the assistant (SPEC §8), over a small backend
 * interface: the engine's is H3's index (search with sync-when-dirty, and the memory path
 * rules of `memory_get`); tests can pass their own.
 */
import type { SearchResponse } from '../../../../shared/types/search';
import type { EngineContext } from '../../context';
import { fail, intArg, invalidJson, isErr, ok, strArg, type Tool } from './types';

export interface MemoryBackend {
  search(req: { query: string; maxResults?: number; minScore?: number; source?: 'memory' | 'sessions' | 'all' }, signal?: AbortSignal): Promise<SearchResponse>;
  get(path: string, from?: number, lines?: number): Promise<{ path: string; text: string }> | { path: string; text: string };
}

/** The engine's memory backend for `agentId` (the index is opened on first use). */
export function engineMemoryBackend(ctx: EngineContext, agentId: string): MemoryBackend {
  const registry = async () => (await import('../../index/registry')).memoryRegistry(ctx);
  return {
    async search(req, signal) {
      const { searchWithSync } = await import('../../search/handlers');
      return searchWithSync(await registry(), agentId, { ...req, signal });
    },
    async get(p, from, lines) {
      const { memoryGet } = await import('../../index/memory-paths');
      return memoryGet((await registry()).pathRoots(agentId), p, from, lines);
    },
  };
}

function searchTool(b: MemoryBackend): Tool {
  return {
    spec: {
      name: 'memory_search',
      description:
        'Search long-term memory (MEMORY.md, daily notes memory/YYYY-MM-DD.md, other notes; past sessions when enabled). Ask in words or exact tokens (ids, paths, error strings). Returns ranked snippets with path#Lstart-Lend citations; read more with memory_get.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What to look for' },
          maxResults: { type: 'integer', description: 'At most this many results (default from settings)' },
          minScore: { type: 'number', description: 'Minimum relevance 0..1' },
          source: { type: 'string', enum: ['memory', 'sessions', 'all'], description: 'Where to search (default: every enabled source)' },
        },
        required: ['query'],
      },
    },
    async run(args, signal) {
      const bad = invalidJson(args);
      if (bad) return bad;
      const query = strArg(args, 'query', true);
      const maxResults = intArg(args, 'maxResults');
      for (const v of [query, maxResults]) if (isErr(v)) return fail(v.error);
      if (!(query as string).trim()) return fail('query must not be empty');
      const req: Parameters<MemoryBackend['search']>[0] = { query: query as string };
      if (typeof maxResults === 'number' && maxResults > 0) req.maxResults = Math.min(maxResults, 50);
      if (typeof args.minScore === 'number' && args.minScore >= 0 && args.minScore <= 1) req.minScore = args.minScore;
      if (args.source === 'memory' || args.source === 'sessions' || args.source === 'all') req.source = args.source;
      try {
        const res = await b.search(req, signal);
        const results = res.results.map((r) => ({ citation: r.citation, path: r.path, startLine: r.startLine, endLine: r.endLine, score: Number(r.score.toFixed(3)), source: r.source, snippet: r.snippet }));
        const out: Record<string, unknown> = { results, mode: res.mode };
        if (res.warnings.length) out.warnings = res.warnings;
        return ok(JSON.stringify(out, null, 2), { count: results.length, mode: res.mode });
      } catch (err) {
        if (signal?.aborted) throw err;
        return fail(`memory_search failed: ${(err as Error).message}`);
      }
    },
  };
}

function getTool(b: MemoryBackend): Tool {
  return {
    spec: {
      name: 'memory_get',
      description: 'Read a memory file (MEMORY.md, memory/*.md, configured extra paths), whole or `lines` lines from line `from` (1-based), e.g. after memory_search.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Workspace-relative path, e.g. "memory/2026-01-31.md"' },
          from: { type: 'integer', description: 'First line (1-based)' },
          lines: { type: 'integer', description: 'Number of lines' },
        },
        required: ['path'],
      },
    },
    async run(args) {
      const bad = invalidJson(args);
      if (bad) return bad;
      const p = strArg(args, 'path', true);
      const from = intArg(args, 'from');
      const lines = intArg(args, 'lines');
      for (const v of [p, from, lines]) if (isErr(v)) return fail(v.error);
      try {
        const r = await b.get(p as string, from as number | undefined, lines as number | undefined);
        return ok(r.text, { path: r.path });
      } catch (err) {
        return fail(`memory_get: ${(err as Error).message}`);
      }
    },
  };
}

/** `memory_search` and `memory_get` over `backend`. */
export function memoryTools(backend: MemoryBackend): Tool[] {
  return [searchTool(backend), getTool(backend)];
}
