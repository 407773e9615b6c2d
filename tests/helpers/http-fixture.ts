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
