/**
 * A local fixture HTTP server (127.0.0.1, random port) for the LLM clients' tests: it plays
 * scripted replies in order — JSON bodies with any status and headers, or SSE streams written
 * in small uneven chunks (so the parser sees split lines) — and records every request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export type Reply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | {
      /** Raw SSE events, each written as-is followed by a blank line. */
      sse: string[];
      /** Keep the connection open after the events (for abort tests). */
      hang?: boolean;
      /** Chunk size for writes; default 7 bytes, to split lines and UTF-8 sequences. */
      chunk?: number;
    };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface Fixture {
  url: string;
  requests: RecordedRequest[];
  /** Resolves when a hanging stream's client went away. */
  closed: Promise<void>;
  close(): Promise<void>;
}

const open: Fixture[] = [];
afterEach(async () => {
  while (open.length) await open.pop()?.close();
});

/** `data: <json>` for an OpenAI chunk. */
export const data = (v: unknown): string => `data: ${typeof v === 'string' ? v : JSON.stringify(v)}`;
/** `event: <type>\ndata: <json>` for an Anthropic event. */
export const event = (v: { type: string } & Record<string, unknown>): string => `event: ${v.type}\ndata: ${JSON.stringify(v)}`;

export async function startFixture(replies: Reply[]): Promise<Fixture> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  let onClosed: () => void = () => {};
  const closed = new Promise<void>((r) => (onClosed = r));
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} });
      const reply = replies.shift();
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'fixture: no reply scripted' } }));
        return;
      }
      if ('json' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.json));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.on('close', () => onClosed());
      const bytes = Buffer.from(reply.sse.map((e) => `${e}\n\n`).join(''), 'utf8');
      const size = reply.chunk ?? 7;
      for (let i = 0; i < bytes.length; i += size) res.write(bytes.subarray(i, i + size));
      if (!reply.hang) res.end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const fx: Fixture = {
    url: `http://127.0.0.1:${port}`,
    requests,
    closed,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
  open.push(fx);
  return fx;
}

/** A sleep that records the delays asked for and returns at once (no timing in tests). */
export function recordingSleep(): { delays: number[]; sleep: (ms: number) => Promise<void> } {
  const delays: number[] = [];
  return { delays, sleep: async (ms: number) => void delays.push(ms) };
}
