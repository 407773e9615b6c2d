/**
 * The MCP server (SPEC §8, `cairn mcp`): the `memory_search` and `memory_get` tools and the
 * memory files as resources, on the same engine and index as the app, built on the official
 * SDK v2 server packages. The SDK owns the protocol: it speaks the 2026-07-28 revision
 * (stateless, `server/discover`) and the 2025 revisions (`initialize`) from one server
 * factory; Cairn adds only its tools, its resources and the stdio wire (stdio-transport.ts).
 * Nothing but protocol messages may go to stdout.
 */
import { DEFAULT_MAX_REQUEST_BODY_SIZE, McpServer, type McpRequestContext } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Engine } from '../../engine/engine';
import { memoryRegistry } from '../../engine/index/registry';
import { acceptSubscriptions, onMemoryChanged, registerMemoryResources, wantsUpdate } from './resources';
import { LineTransport } from './stdio-transport';
import { registerMemoryTools } from './tools';

/** Largest JSON-RPC message `cairn mcp` reads (stdio line or HTTP body): the SDK's HTTP bound. */
export const MAX_MESSAGE_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE;

/** A server factory for one agent: every connection (stdio) or request (HTTP) gets a fresh instance. */
export function mcpServerFactory(engine: Engine, agent?: string): (ctx?: McpRequestContext) => McpServer {
  const agentId = engine.ctx.agentId(agent);
  return (ctx) => {
    const legacy = ctx?.era === 'legacy';
    const server = new McpServer(
      { name: 'cairn', version: engine.ctx.version },
      {
        capabilities: { tools: { listChanged: false }, resources: { listChanged: true, ...(legacy ? { subscribe: true } : {}) } },
        instructions: 'Cairn: search and read the long-term memory of the assistant (memory_search, then memory_get on a citation it returned).',
      },
    );
    registerMemoryTools(server, engine, agentId);
    registerMemoryResources(server, engine, agentId);
    if (legacy) acceptSubscriptions(server);
    return server;
  };
}

/** Start the agent's memory watcher (edits then reach searches and resource notifications). */
export function watchMemory(engine: Engine, agentId: string): void {
  memoryRegistry(engine.ctx)
    .watch(agentId)
    .catch((err: Error) => engine.ctx.warn(`memory watcher: ${err.message}`));
}

/** Serve over stdio until the client closes its end (every request asked by then is answered). */
export async function serveMcpStdio(engine: Engine, agent?: string): Promise<void> {
  const agentId = engine.ctx.agentId(agent);
  const make = mcpServerFactory(engine, agent);
  const live = new Set<McpServer>();
  const transport = new LineTransport(process.stdin, process.stdout, MAX_MESSAGE_BYTES);
  const handle = serveStdio(
    (ctx) => {
      const server = make(ctx);
      live.add(server);
      server.server.onclose = () => live.delete(server);
      return server;
    },
    { transport, onerror: () => {} },
  );
  const unsubscribe = onMemoryChanged(engine, agentId, (uris) => {
    for (const server of live) {
      if (!server.isConnected()) continue;
      server.sendResourceListChanged();
      for (const uri of uris) if (wantsUpdate(server, uri)) void server.server.sendResourceUpdated({ uri }).catch(() => {});
    }
  });
  watchMemory(engine, agentId);
  await transport.done;
  unsubscribe();
  await handle.close();
}
