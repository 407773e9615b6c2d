/**
 * `memory_search` and `memory_get` for the assistant (SPEC §8), over a small backend
 * interface: the engine's is H3's index (search with sync-when-dirty, and the memory path
 * rules of `memory_get`); tests can pass their own.
 */
import type { SearchResponse } from '../../../../shared/types/search';
import type { EngineContext } from '../../context';
import { fail, intArg, invalidJson, isErr, ok, strArg, type Tool } from './types';
import { MEMORY_GET_SPEC as G, MEMORY_SEARCH_MAX_RESULTS, MEMORY_SEARCH_SPEC as S } from '../../search/memory-tool-spec';

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
      name: S.name,
      description: S.description,
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: S.args.query },
          maxResults: { type: 'integer', description: S.args.maxResults },
          minScore: { type: 'number', description: S.args.minScore },
          source: { type: 'string', enum: [...S.sources], description: S.args.source },
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
      if (typeof maxResults === 'number' && maxResults > 0) req.maxResults = Math.min(maxResults, MEMORY_SEARCH_MAX_RESULTS);
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
      name: G.name,
      description: G.description,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: G.args.path },
          from: { type: 'integer', description: G.args.from },
          lines: { type: 'integer', description: G.args.lines },
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
