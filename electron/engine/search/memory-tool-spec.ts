/**
 * What the model is told about `memory_search` and `memory_get` (SPEC §8), in one place for
 * both ways it reaches them: the chat loop's tools (chat/tools/memory.ts) and the MCP server
 * (cli/mcp/tools.ts). Names, descriptions and limits live here, and so do the arguments: one
 * zod schema per tool, which the MCP server registers as is and the chat loop both validates
 * with and turns into the JSON Schema it shows the model (`toolJsonSchema`), so a bad
 * `minScore` is refused the same way on both paths.
 */
import { z } from 'zod';

/** Most results one `memory_search` call returns (more would flood the model's context). */
export const MEMORY_SEARCH_MAX_RESULTS = 50;

export const MEMORY_SEARCH_SPEC = {
  name: 'memory_search',
  description:
    'Search long-term memory (MEMORY.md, daily notes memory/YYYY-MM-DD.md, other notes; past sessions when enabled) with hybrid keyword + semantic search. Ask in words or exact tokens (ids, paths, error strings). Returns the lines that answer, numbered (L14: …), under path#Lstart-Lend citations; read more with memory_get.',
  args: {
    query: 'What to look for, in words or exact tokens',
    maxResults: `At most this many results (default from settings; at most ${MEMORY_SEARCH_MAX_RESULTS})`,
    minScore: 'Minimum relevance 0..1',
    source: 'Where to search: memory, sessions or all (default: every enabled source)',
  },
  sources: ['memory', 'sessions', 'all'] as const,
} as const;

export const MEMORY_GET_SPEC = {
  name: 'memory_get',
  description:
    'Read what a memory_search citation names (e.g. "memory/2026-01-31.md#L3-L5", "sessions/<id>.jsonl#L5-L9"), or a memory file (MEMORY.md, memory/*.md, configured extra paths) by its workspace-relative path, whole or `lines` lines from line `from` (1-based).',
  args: {
    path: 'A citation from memory_search, or a workspace-relative path, e.g. "memory/2026-01-31.md"',
    from: 'First line (1-based)',
    lines: 'Number of lines',
  },
} as const;

/** The arguments of `memory_search` (both paths validate with this). */
export const memorySearchArgs = z.object({
  query: z.string().refine((q) => q.trim().length > 0, 'must not be empty').describe(MEMORY_SEARCH_SPEC.args.query),
  maxResults: z.number().int().positive().optional().describe(MEMORY_SEARCH_SPEC.args.maxResults),
  minScore: z.number().min(0).max(1).optional().describe(MEMORY_SEARCH_SPEC.args.minScore),
  source: z.enum(MEMORY_SEARCH_SPEC.sources).optional().describe(MEMORY_SEARCH_SPEC.args.source),
});

/** The arguments of `memory_get`. */
export const memoryGetArgs = z.object({
  path: z.string().min(1).describe(MEMORY_GET_SPEC.args.path),
  from: z.number().int().positive().optional().describe(MEMORY_GET_SPEC.args.from),
  lines: z.number().int().nonnegative().optional().describe(MEMORY_GET_SPEC.args.lines),
});

/**
 * The JSON Schema a chat model is shown for a tool's arguments: zod's, without the `$schema`
 * line and the ±2^53 bounds zod writes for every integer (tokens a small window cannot spare,
 * and no model needs to be told them), and a positive integer as `minimum: 1`.
 */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  const props = (json.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const p of Object.values(props)) {
    if (p.maximum === Number.MAX_SAFE_INTEGER) delete p.maximum;
    if (p.minimum === Number.MIN_SAFE_INTEGER) delete p.minimum;
    // `positive()` on an integer: `minimum: 1` says the same as `exclusiveMinimum: 0`, and
    // every JSON Schema reader (draft-04 clients too) knows it.
    if (p.type === 'integer' && p.exclusiveMinimum === 0) {
      delete p.exclusiveMinimum;
      p.minimum = 1;
    }
  }
  return json;
}

/**
 * Arguments as a chat model writes them, made fit for `schema`: `null` for an optional
 * argument means "not given", and a number written as a string ("3") where the schema wants a
 * number is that number. Small local models do both; an MCP client gets the schema as is.
 */
export function lenientToolArgs(schema: z.ZodObject, args: Record<string, unknown>): Record<string, unknown> {
  const wantsNumber = (t: unknown): boolean => {
    const def = (t as { _zod?: { def?: { type?: string; innerType?: unknown } } } | undefined)?._zod?.def;
    return def?.type === 'optional' ? wantsNumber(def.innerType) : def?.type === 'number';
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === null) continue;
    out[k] = typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) && wantsNumber(schema.shape[k]) ? Number(v) : v;
  }
  return out;
}

/** A zod error as one line a model (or a person) can act on: `minScore: Too big: …`. */
export function describeToolArgsError(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? `argument "${i.path.map(String).join('.')}"` : 'arguments'}: ${i.message}`).join('; ');
}
