/**
 * `memory_search` and `memory_get` for the assistant (SPEC §8), over a small backend
 * interface: the engine's is the search backend (search with sync-when-dirty) plus the memory
 * path rules of `memory_get`; tests can pass their own.
 */
import { readableText } from '../../search/lines';
import type { SearchResponse } from '../../../../shared/types/search';
import type { EngineContext } from '../../core/context';
import type { z } from 'zod';
import { fail, invalidJson, ok, type Tool, type ToolOutput } from './types';
import {
  describeToolArgsError,
  lenientToolArgs,
  MEMORY_GET_SPEC as G,
  MEMORY_SEARCH_MAX_RESULTS,
  MEMORY_SEARCH_SPEC as S,
  memoryGetArgs,
  memorySearchArgs,
  toolJsonSchema,
} from '../../search/memory-tool-spec';

export interface MemoryBackend {
  search(req: { query: string; maxResults?: number; minScore?: number; source?: 'memory' | 'sessions' | 'all' }, signal?: AbortSignal): Promise<SearchResponse>;
  get(path: string, from?: number, lines?: number): Promise<{ path: string; text: string }> | { path: string; text: string };
}

/** The engine's memory backend for `agentId` (the index is opened on first use). */
export function engineMemoryBackend(ctx: EngineContext, agentId: string): MemoryBackend {
  return {
    search: (req, signal) => ctx.searchBackend().search(agentId, { ...req, signal }),
    async get(p, from, lines) {
      // Only the path rules (and the session stores for a session citation): not the
      // registry, whose first import loads SQLite and the embedder.
      const { getCited } = await import('../../sessions/cited-get');
      return getCited(ctx, agentId, p, from, lines);
    },
  };
}

/** Validate a model's arguments against the tool's one schema; a tool error names the bad field. */
function parseArgs<T extends z.ZodObject>(schema: T, args: Record<string, unknown>): z.infer<T> | ToolOutput {
  const bad = invalidJson(args);
  if (bad) return bad;
  const parsed = schema.safeParse(lenientToolArgs(schema, args));
  return parsed.success ? parsed.data : fail(describeToolArgsError(parsed.error));
}

const isOutput = (v: unknown): v is ToolOutput => typeof v === 'object' && v !== null && 'isError' in v && 'content' in v;

function searchTool(b: MemoryBackend): Tool {
  return {
    spec: { name: S.name, description: S.description, parameters: toolJsonSchema(memorySearchArgs) },
    async run(args, signal) {
      const a = parseArgs(memorySearchArgs, args);
      if (isOutput(a)) return a;
      const req: Parameters<MemoryBackend['search']>[0] = { query: a.query };
      if (a.maxResults !== undefined) req.maxResults = Math.min(a.maxResults, MEMORY_SEARCH_MAX_RESULTS);
      if (a.minScore !== undefined) req.minScore = a.minScore;
      if (a.source !== undefined) req.source = a.source;
      try {
        const res = await b.search(req, signal);
        const results = res.results.map((r) => ({ citation: r.citation, path: r.path, startLine: r.startLine, endLine: r.endLine, score: Number(r.score.toFixed(3)), source: r.source, snippet: readableText(r) }));
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
    spec: { name: G.name, description: G.description, parameters: toolJsonSchema(memoryGetArgs) },
    async run(args) {
      const a = parseArgs(memoryGetArgs, args);
      if (isOutput(a)) return a;
      try {
        const r = await b.get(a.path, a.from, a.lines);
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
