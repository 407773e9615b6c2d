/**
 * The MCP tools `memory_search` and `memory_get` (SPEC §8) on one McpServer instance.
 *
 * - The argument schemas are the chat loop's (search/memory-tool-spec.ts): the SDK is handed
 *   a Standard Schema whose JSON Schema is the cleaned `toolJsonSchema` (no `$schema` line,
 *   no ±2^53 integer bounds) and whose validation is zod's, with one readable line per bad
 *   argument; the SDK answers a failed validation itself.
 * - Answers are text only, once: a client such as OpenClaw shows `structuredContent` beside
 *   the text unless the text is its JSON, and tokens are what Cairn exists to save.
 *   `memory_search` answers citation first, one result per block; `memory_get` takes every
 *   citation form `memory_search` returns (memory files and past sessions).
 * - Both are read-only and touch nothing outside the state dir (`readOnlyHint`,
 *   `openWorldHint: false`), so clients need not ask before each call.
 */
import { readableText } from '../../engine/search/lines';
import type { McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { SearchResponse } from '../../../shared/types/search';
import type { Engine } from '../../engine/engine';
import { getCited } from '../../engine/sessions/cited-get';
import {
  describeToolArgsError,
  MEMORY_GET_SPEC,
  MEMORY_SEARCH_MAX_RESULTS,
  MEMORY_SEARCH_SPEC,
  memoryGetArgs,
  memorySearchArgs,
  toolJsonSchema,
} from '../../engine/search/memory-tool-spec';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** `schema` as the Standard Schema the SDK takes: zod validates, the model sees the cleaned JSON Schema. */
export function toolInputSchema<T extends z.ZodObject>(schema: T): StandardSchemaWithJSON<z.input<T>, z.output<T>> {
  const json = toolJsonSchema(schema);
  return {
    '~standard': {
      version: 1,
      vendor: 'cairn',
      validate(value: unknown) {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          return { issues: [{ message: `arguments must be an object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}` }] };
        }
        const parsed = schema.safeParse(value);
        return parsed.success ? { value: parsed.data } : { issues: [{ message: describeToolArgsError(parsed.error) }] };
      },
      jsonSchema: { input: () => json, output: () => json },
    },
  } as StandardSchemaWithJSON<z.input<T>, z.output<T>>;
}

const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const toolError = (err: unknown) => ({ isError: true, ...text(err instanceof Error ? err.message : String(err)) });

/**
 * A search answer as the model reads it: per result `citation (score, source[, day])`, then the
 * lines that answer, numbered so each can be cited (`L14: …`; the window when none was picked).
 */
export function formatSearchText(res: Pick<SearchResponse, 'results' | 'warnings'>): string {
  const blocks = res.results.map((r) => `${r.citation} (${r.score.toFixed(2)}, ${r.source}${r.day && !r.path.includes(r.day) ? `, ${r.day}` : ''})\n${readableText(r).trimEnd()}`);
  const head = res.results.length ? [] : ['no results'];
  const warn = res.warnings.map((w) => `warning: ${w}`);
  return [...head, ...blocks, ...warn].join('\n\n');
}

/** Register `memory_search` and `memory_get` for `agentId` on `server`. */
export function registerMemoryTools(server: McpServer, engine: Engine, agentId: string): void {
  const S = MEMORY_SEARCH_SPEC;
  server.registerTool(S.name, { description: S.description, inputSchema: toolInputSchema(memorySearchArgs), annotations: { title: 'Search memory', ...READ_ONLY } }, async (args) => {
    try {
      const req = { ...args, maxResults: args.maxResults === undefined ? undefined : Math.min(args.maxResults, MEMORY_SEARCH_MAX_RESULTS) };
      return text(formatSearchText(await engine.ctx.searchBackend().search(agentId, req)));
    } catch (err) {
      return toolError(err);
    }
  });
  const G = MEMORY_GET_SPEC;
  server.registerTool(G.name, { description: G.description, inputSchema: toolInputSchema(memoryGetArgs), annotations: { title: 'Read memory', ...READ_ONLY } }, async (args) => {
    try {
      return text((await getCited(engine.ctx, agentId, args.path, args.from, args.lines)).text);
    } catch (err) {
      return toolError(err);
    }
  });
}
