/**
 * `cairn serve`: the renderer and the contract over HTTP + server-sent events, on 127.0.0.1
 * only, behind a random per-run token.
 *
 *   POST /api/call/<channel>   body {request, opId?}  →  Result JSON
 *   GET  /api/events           text/event-stream of every contract event
 *   POST /mcp                  MCP over Streamable HTTP (when `mcp` is given; cli/mcp/http.ts)
 *   GET  /*                    the built renderer
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isChannel, type Result } from '../../shared/contract';
import type { Dispatcher } from '../engine/rpc/dispatcher';
import type { EventBus } from '../engine/rpc/events';
import { checkRequest, newToken, TOKEN_COOKIE } from './security';
import { serveStatic } from './static';

export interface ServerOptions {
  /** The engine's, or an engine host's (which follows a switch of state dir). */
  dispatcher: Dispatcher;
  events: Pick<EventBus, 'onAny'>;
  /** Directory of the built renderer (index.html + assets). */
  staticDir: string;
  /** 0 or absent: a free port. */
  port?: number;
  token?: string;
  /** The MCP endpoint to answer at `/mcp`, behind the same checks (cli/mcp/http.ts). */
  mcp?: { handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> };
}

export interface RunningServer {
  url: string;
  /** The URL to open: includes the token. */
  openUrl: string;
  port: number;
  token: string;
  /** The bound socket address as the OS reports it (what the server really listens on). */
  address(): AddressInfo;
  close(): Promise<void>;
}

/** Largest request body the API reads (a memory note or a config value fits many times over). */
export const MAX_BODY = 20 * 1024 * 1024;

/** A body over MAX_BODY: answered with 413 and the limit, never a connection reset. */
class BodyTooLargeError extends Error {
  constructor() {
    super(`request body over the limit of ${MAX_BODY} bytes (${MAX_BODY / 1024 / 1024} MiB)`);
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) {
      // Said up front: answer at once, and read (discard) the rest so the client sees the 413.
      req.resume();
      reject(new BodyTooLargeError());
      return;
    }
    let size = 0;
    let over = false;
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (over) return;
      if (size > MAX_BODY) {
        over = true;
        parts.length = 0;
        reject(new BodyTooLargeError());
        return;
      }
      parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** `POST /api/call/<channel>`: one contract call, its JSON body validated by the dispatcher. */
async function handleCall(req: http.IncomingMessage, res: http.ServerResponse, url: URL, dispatcher: ServerOptions['dispatcher']): Promise<void> {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  // A JSON content type cannot be sent cross-site without a CORS preflight we never grant.
  if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
    sendJson(res, 415, { ok: false, error: { code: 'bad_request', message: 'expected application/json' } });
    return;
  }
  let channel: string;
  try {
    channel = decodeURIComponent(url.pathname.slice('/api/call/'.length));
  } catch {
    sendJson(res, 400, { ok: false, error: { code: 'bad_request', message: `malformed percent-escape in the channel name ${JSON.stringify(url.pathname.slice('/api/call/'.length, 200))}` } });
    return;
  }
  if (!isChannel(channel)) {
    sendJson(res, 404, { ok: false, error: { code: 'unknown_channel', message: `unknown channel ${JSON.stringify(channel)}` } });
    return;
  }
  let body: { request?: unknown; opId?: unknown };
  try {
    body = JSON.parse((await readBody(req)) || '{}') as typeof body;
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      res.setHeader('connection', 'close');
      sendJson(res, 413, { ok: false, error: { code: 'bad_request', message: err.message } });
      return;
    }
    sendJson(res, 400, { ok: false, error: { code: 'bad_request', message: `invalid JSON body: ${(err as Error).message}` } });
    return;
  }
  const opId = typeof body.opId === 'string' ? body.opId : undefined;
  const result: Result<unknown> = await dispatcher.dispatch(channel, body.request ?? {}, opId);
  sendJson(res, 200, result);
}

/** `GET /api/events`: the engine's events as server-sent events, with a keep-alive ping. */
function openEventStream(req: http.IncomingMessage, res: http.ServerResponse, clients: Set<http.ServerResponse>): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
  });
  res.write(': connected\n\n');
  clients.add(res);
  const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
  req.on('close', () => {
    clearInterval(ping);
    clients.delete(res);
  });
}

export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const token = opts.token ?? newToken();
  const sseClients = new Set<http.ServerResponse>();
  let port = 0;

  const unsubscribe = opts.events.onAny((event, payload) => {
    const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
    for (const res of sseClients) res.write(frame);
  });

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: Error) => {
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: { code: 'internal', message: err.message } });
      else res.end();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const { refusal, queryToken } = checkRequest(req, url, { port, token });
    if (refusal) {
      res.writeHead(refusal.status, { 'content-type': 'text/plain; charset=utf-8' }).end(refusal.message);
      return;
    }
    if (url.pathname === '/mcp' && opts.mcp) {
      await opts.mcp.handle(req, res);
      return;
    }
    if (url.pathname.startsWith('/api/call/')) {
      await handleCall(req, res, url, opts.dispatcher);
      return;
    }
    if (url.pathname === '/api/events') {
      openEventStream(req, res, sseClients);
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      sendJson(res, 404, { ok: false, error: { code: 'not_found', message: `no such endpoint ${url.pathname}` } });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET' }).end();
      return;
    }
    const cookie = queryToken
      ? { 'set-cookie': `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/` }
      : ({} as Record<string, string>);
    serveStatic(res, opts.staticDir, url.pathname, cookie);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    openUrl: `${base}/?token=${token}`,
    port,
    token,
    address: () => server.address() as AddressInfo,
    async close() {
      unsubscribe();
      for (const res of sseClients) res.end();
      sseClients.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
