/**
 * A local HTTP server (127.0.0.1 only) that serves one model file the way Hugging Face does
 * for a download: any `*.gguf` path answers with the file, `Range` requests with 206 and the
 * slice (so an interrupted download resumes), HEAD with the size. `holdAfter` pauses every
 * response once that many bytes went out in all, until `release()` (or the client goes away), so
 * a test can cancel mid-way without timing; every request is recorded.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ServedRequest {
  method: string;
  path: string;
  range: string | undefined;
}

export interface ModelFileServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: ServedRequest[];
  /** Resolves once a held download has sent its first `holdAfter` bytes. */
  held: Promise<void>;
  /** Let a held download go on. */
  release(): void;
  close(): Promise<void>;
}

function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m) return undefined;
  const start = m[1] ? Number(m[1]) : size - Number(m[2]);
  const end = m[1] && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
  return { start, end };
}

export async function startModelFileServer(file: string, opts: { holdAfter?: number } = {}): Promise<ModelFileServer> {
  const size = fs.statSync(file).size;
  const requests: ServedRequest[] = [];
  let sent = 0;
  let onHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  let releaseHold: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (releaseHold = resolve));
  let holding = opts.holdAfter !== undefined;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, range: req.headers.range });
    if (!url.pathname.endsWith('.gguf')) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.method === 'HEAD' ? undefined : 'model server');
      return;
    }
    const range = parseRange(req.headers.range, size);
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const headers: Record<string, string | number> = {
      'content-type': 'application/octet-stream',
      'content-length': end - start + 1,
      'accept-ranges': 'bytes',
      etag: `"${size}"`,
    };
    if (range) headers['content-range'] = `bytes ${start}-${end}/${size}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    send(res, fs.createReadStream(file, { start, end }));
  });

  /** Pipe `src` to `res`, pausing every response once `holdAfter` bytes went out in all, until release. */
  function send(res: http.ServerResponse, src: fs.ReadStream): void {
    src.on('data', (chunk) => {
      const n = typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (holding && opts.holdAfter !== undefined && sent + n > opts.holdAfter) {
        src.pause();
        onHeld();
        void released.then(() => {
          sent += n;
          if (!res.destroyed && !res.write(chunk)) res.once('drain', () => src.resume());
          else src.resume();
        });
        return;
      }
      sent += n;
      if (!res.write(chunk)) {
        src.pause();
        res.once('drain', () => src.resume());
      }
    });
    src.on('end', () => res.end());
    res.on('close', () => src.destroy());
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    held,
    release: () => {
      holding = false;
      releaseHold();
    },
    async close() {
      holding = false;
      releaseHold();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
