/**
 * The MCP server (SPEC §8, `cairn mcp`): `memory_search` and `memory_get` over stdio, on the
 * same engine and index as the app. Nothing but protocol messages may go to stdout.
 */
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../engine/engine';
import { memoryRegistry } from '../engine/index/registry';
import { memoryGet } from '../engine/index/memory-paths';
import { agentOf, searchWithSync } from '../engine/search/handlers';

function toolError(err: unknown) {
  return { isError: true, content: [{ type: 'text' as const, text: (err as Error).message }] };
}

/** Build the server (not yet connected) for one engine and agent. */
export function createMcpServer(engine: Engine, agent?: string): McpServer {
  const server = new McpServer({ name: 'cairn', version: engine.ctx.version });
  const agentId = agentOf(engine.ctx, agent);
  const reg = memoryRegistry(engine.ctx);
  server.registerTool(
    'memory_search',
    {
      description:
        "Search the assistant's long-term memory (MEMORY.md, daily notes, and transcripts when enabled) with hybrid keyword + semantic search. Returns snippets with path#Lstart-Lend citations; use memory_get to read more.",
      inputSchema: {
        query: z.string().min(1).describe('what to look for, in words'),
        maxResults: z.number().int().positive().max(100).optional(),
        minScore: z.number().min(0).max(1).optional(),
        source: z.enum(['memory', 'sessions', 'all']).optional(),
      },
    },
    async (args) => {
      try {
        const res = await searchWithSync(reg, agentId, args);
        const payload = { results: res.results, mode: res.mode, embedder: res.embedder, warnings: res.warnings };
        return { content: [{ type: 'text' as const, text: JSON.stringify(payload, null, 2) }], structuredContent: payload };
      } catch (err) {
        return toolError(err);
      }
    },
  );
  server.registerTool(
    'memory_get',
    {
      description:
        'Read a memory file (MEMORY.md, memory/*.md) by its workspace-relative path, optionally `lines` lines from line `from` (1-based), e.g. after memory_search.',
      inputSchema: {
        path: z.string().min(1),
        from: z.number().int().positive().optional(),
        lines: z.number().int().nonnegative().optional(),
      },
    },
    async (args) => {
      try {
        const roots = { workspace: engine.ctx.paths(agentId).workspace, extraPaths: reg.settings(agentId).extraPaths };
        const out = memoryGet(roots, args.path, args.from, args.lines);
        return { content: [{ type: 'text' as const, text: out.text }], structuredContent: out };
      } catch (err) {
        return toolError(err);
      }
    },
  );
  return server;
}

/** Serve over stdio until the client closes the connection. */
export async function serveMcpStdio(engine: Engine, agent?: string): Promise<void> {
  const server = createMcpServer(engine, agent);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
