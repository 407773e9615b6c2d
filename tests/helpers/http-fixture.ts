/**
 * A local HTTP fixture server (127.0.0.1 only) for tests of code that talks HTTP: records
 * every request (method, path, headers, parsed JSON body) and answers with a handler.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface FixtureReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
}

export interface Fixture {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const open: Fixture[] = [];
afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

/** Start a server; `handler` sees each request (and its index) and returns the reply. */
export async function startFixture(
  handler: (req: RecordedRequest, n: number, raw: { req: http.IncomingMessage; res: http.ServerResponse }) => FixtureReply | Promise<FixtureReply> | 'handled',
): Promise<Fixture> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // keep raw text
      }
      const rec: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(rec);
      void Promise.resolve(handler(rec, requests.length - 1, { req, res })).then((reply) => {
        if (reply === 'handled') return;
        const payload = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
        res.writeHead(reply.status ?? 200, { 'content-type': reply.json !== undefined ? 'application/json' : 'text/plain', ...reply.headers });
        res.end(payload);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const fixture: Fixture = {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  open.push(fixture);
  return fixture;
}

/**
 * A server answering every GET with `size` bytes of `fill`, written `step` bytes every 2 ms
 * (so progress events arrive and a cancel lands mid-way); HEAD gets the headers only.
 */
export function serveSlowBytes(size: number, o: { step?: number; fill?: number; headers?: Record<string, string> } = {}): Promise<Fixture> {
  const step = o.step ?? 50_000;
  const body = Buffer.alloc(size, o.fill ?? 1);
  return startFixture((req, _n, { res }) => {
    res.writeHead(200, { 'content-length': String(size), 'content-type': 'application/octet-stream', ...o.headers });
    if (req.method === 'HEAD') {
      res.end();
      return 'handled';
    }
    let i = 0;
    const next = (): void => {
      if (res.destroyed) return;
      if (i >= size) return void res.end();
      res.write(body.subarray(i, i + step));
      i += step;
      setTimeout(next, 2);
    };
    next();
    return 'handled';
  });
}
