/**
 * A local HTTP server (127.0.0.1 only) that serves one model file the way Hugging Face does
 * for a download: any `*.gguf` path answers with the file, `Range` requests with 206 and the
 * slice (so an interrupted download resumes), HEAD with the size. `holdAfter` stops the
 * first full download after that many bytes until `release()` (or the client goes away), so
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
  let holding = opts.holdAfter !== undefined;
  let onHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (onHeld = resolve));
  let releaseHold: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (releaseHold = resolve));

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
    const hold = holding && opts.holdAfter !== undefined && start === 0 ? opts.holdAfter : undefined;
    if (hold === undefined) {
      fs.createReadStream(file, { start, end }).pipe(res);
      return;
    }
    holding = false;
    const first = fs.createReadStream(file, { start: 0, end: Math.min(hold, size) - 1 });
    first.on('end', () => {
      onHeld();
      // The rest only after release; a client that cancels meanwhile closes the socket.
      void released.then(() => {
        if (!res.destroyed) fs.createReadStream(file, { start: Math.min(hold, size), end }).pipe(res);
      });
    });
    first.pipe(res, { end: false });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    held,
    release: () => releaseHold(),
    async close() {
      releaseHold();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
