/**
 * MCP over Streamable HTTP: `cairn mcp --http` on its own port, and the `/mcp` route of
 * `cairn serve`. The SDK's `createMcpHandler` serves the 2026-07-28 revision (stateless, one
 * server instance per request) and, for 2025-era clients, its stateless legacy fallback;
 * Cairn only guards it as `cairn serve` is guarded (server/security.ts: 127.0.0.1 only, Host
 * and Origin checks, the state dir's token) and routes change notifications of the memory
 * files to the handler's subscriptions.
 *
 * The token may come as `Authorization: Bearer <token>` or in the URL (`/mcp?token=…`): an
 * MCP client is often configured with nothing but a URL (the conformance runner takes only
 * `--url`), and unlike the UI's API there is no page load to turn it into a cookie.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Engine } from '../../engine/engine';
import type { EngineHost } from '../../engine/host';
import { checkRequest } from '../../server/security';
import { loadOrCreateToken, tokenFilePath } from '../../server/token-file';
import { onMemoryChanged } from './resources';
import { MAX_MESSAGE_BYTES, mcpServerFactory, watchMemory } from './server';

/** The path MCP is served at, on `cairn mcp --http` and `cairn serve` alike. */
export const MCP_PATH = '/mcp';

/** A mounted MCP endpoint: answer one (already authorised) request; `close` ends its streams. */
export interface McpRoute {
  handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** The MCP endpoint of `engine` for `agent` (not yet guarded: the caller checks the request). */
export function mcpRoute(engine: Engine, agent?: string): McpRoute {
  const agentId = engine.ctx.agentId(agent);
  const handler = createMcpHandler(mcpServerFactory(engine, agent), { maxRequestBodySize: MAX_MESSAGE_BYTES, onerror: () => {} });
  const node = toNodeHandler(handler, { maxRequestBodySize: MAX_MESSAGE_BYTES });
  const unsubscribe = onMemoryChanged(engine, agentId, (uris) => {
    handler.notify.resourcesChanged();
    for (const uri of uris) handler.notify.resourceUpdated(uri);
  });
  watchMemory(engine, agentId);
  return {
    handle: (req, res) => node(req, res),
    async close() {
      unsubscribe();
      await handler.close();
    },
  };
}

export interface McpHttpOptions {
  agent?: string;
  /** 0: a free port. */
  port: number;
  /** Stops the server. */
  signal: AbortSignal;
  /** Where the URL line goes (stdout). */
  print(line: string): void;
}

/**
 * An MCP route that follows a host's engine: when the window switches state dir
 * (`state.switched`), the route serves the new engine's memory from then on.
 */
export function hostMcpRoute(host: Pick<EngineHost, 'current' | 'events'>): McpRoute {
  let route = mcpRoute(host.current());
  const off = host.events.onAny((event) => {
    if (event !== 'state.switched') return;
    const old = route;
    route = mcpRoute(host.current());
    void old.close();
  });
  return {
    handle: (req, res) => route.handle(req, res),
    async close() {
      off();
      await route.close();
    },
  };
}

/** A listening MCP-only endpoint: its URL (token included) and how to stop it. */
export interface McpListener {
  /** The URL with the token (`?token=…`): for the user's own terminal, never a log. */
  url: string;
  close(): Promise<void>;
}

/**
 * A log line naming the MCP endpoint of `url` without its token, and the private file that
 * holds the token: an app's log (the desktop app's stdout, a journal) may be read by others.
 */
export function mcpLogLine(url: string, tokenFile: string): string {
  const u = new URL(url);
  u.search = '';
  return `Cairn MCP (Streamable HTTP): ${u.href} (token: in ${tokenFile}, readable only by you; send it as "Authorization: Bearer <token>")`;
}

/**
 * Serve `route` alone at `/mcp` on 127.0.0.1:`port` (0: a free one), behind `cairn serve`'s
 * checks with `token`. `cairn mcp --http` and the desktop app use it.
 */
export async function listenMcp(route: McpRoute, opts: { port: number; token: string }): Promise<McpListener> {
  let port = 0;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const { refusal } = checkRequest(req, url, { port, token: opts.token });
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' }).end(refusal.message);
      return;
    }
    if (url.pathname !== MCP_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`no such endpoint ${url.pathname}: MCP is at ${MCP_PATH}`);
      return;
    }
    route.handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${MCP_PATH}?token=${opts.token}`,
    async close() {
      await route.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `cairn mcp --http`: serve until SIGINT/SIGTERM or `signal`; prints the URL with the token. */
export async function serveMcpHttp(engine: Engine, opts: McpHttpOptions): Promise<void> {
  const token = loadOrCreateToken(tokenFilePath(engine.ctx.stateDir, engine.ctx.state().createdBy));
  const listener = await listenMcp(mcpRoute(engine, opts.agent), { port: opts.port, token });
  opts.print(`MCP (Streamable HTTP) for ${engine.ctx.stateDir}: ${listener.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    opts.signal.addEventListener('abort', stop, { once: true });
  });
  await listener.close();
}
