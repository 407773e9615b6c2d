/**
 * The MCP server (SPEC §8, `cairn mcp`): `memory_search` and `memory_get` over stdio, on the
 * same engine and index as the app. Nothing but protocol messages may go to stdout.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Engine } from '../engine/engine';
import { memoryRegistry } from '../engine/index/registry';
import { memoryGet } from '../engine/index/memory-paths';
import { MEMORY_GET_SPEC, MEMORY_SEARCH_MAX_RESULTS, MEMORY_SEARCH_SPEC, memoryGetArgs, memorySearchArgs } from '../engine/search/memory-tool-spec';
import { trackInFlight } from './mcp-drain';
import { answerProtocolErrors } from './mcp-errors';

function toolError(err: unknown) {
  return { isError: true, content: [{ type: 'text' as const, text: (err as Error).message }] };
}

/** Build the server (not yet connected) for one engine and agent. */
export function createMcpServer(engine: Engine, agent?: string): McpServer {
  const server = new McpServer({ name: 'cairn', version: engine.ctx.version });
  const agentId = engine.ctx.agentId(agent);
  const reg = memoryRegistry(engine.ctx);
  const S = MEMORY_SEARCH_SPEC;
  server.registerTool(
    S.name,
    {
      description: S.description,
      inputSchema: memorySearchArgs.shape,
    },
    async (args) => {
      try {
        const req = { ...args, maxResults: args.maxResults === undefined ? undefined : Math.min(args.maxResults, MEMORY_SEARCH_MAX_RESULTS) };
        const res = await engine.ctx.searchBackend().search(agentId, req);
        const payload = { results: res.results, mode: res.mode, embedder: res.embedder, warnings: res.warnings };
        return { content: [{ type: 'text' as const, text: JSON.stringify(payload, null, 2) }], structuredContent: payload };
      } catch (err) {
        return toolError(err);
      }
    },
  );
  const G = MEMORY_GET_SPEC;
  server.registerTool(
    G.name,
    {
      description: G.description,
      inputSchema: memoryGetArgs.shape,
    },
    async (args) => {
      try {
        const out = memoryGet(reg.pathRoots(agentId), args.path, args.from, args.lines);
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
  answerProtocolErrors(transport);
  const inFlight = trackInFlight(transport);
  await closed;
  // The client may close its end right after its last request: answer what was asked first.
  await inFlight.drained();
  await server.close();
}
