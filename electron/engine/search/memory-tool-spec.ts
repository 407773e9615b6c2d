/**
 * What the model is told about `memory_search` and `memory_get` (SPEC §8), in one place for
 * both ways it reaches them: the chat loop's tools (chat/tools/memory.ts, JSON Schema) and
 * the MCP server (cli/mcp-server.ts, zod). Names, descriptions, argument descriptions and
 * limits must not drift apart between the two.
 */

/** Most results one `memory_search` call returns (more would flood the model's context). */
export const MEMORY_SEARCH_MAX_RESULTS = 50;

export const MEMORY_SEARCH_SPEC = {
  name: 'memory_search',
  description:
    'Search long-term memory (MEMORY.md, daily notes memory/YYYY-MM-DD.md, other notes; past sessions when enabled) with hybrid keyword + semantic search. Ask in words or exact tokens (ids, paths, error strings). Returns ranked snippets with path#Lstart-Lend citations; read more with memory_get.',
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
    'Read a memory file (MEMORY.md, memory/*.md, configured extra paths) by its workspace-relative path, whole or `lines` lines from line `from` (1-based), e.g. after memory_search.',
  args: {
    path: 'Workspace-relative path, e.g. "memory/2026-01-31.md"',
    from: 'First line (1-based)',
    lines: 'Number of lines',
  },
} as const;
