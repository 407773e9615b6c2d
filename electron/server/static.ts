/** Serving the built renderer (dist/renderer) with a strict CSP; unknown paths get index.html. */
import fs from 'node:fs';
import path from 'node:path';
import type http from 'node:http';
import { isInside } from '../engine/util/path-inside';
import { contentType } from '../../openclaw-plugin/content-types.js';
import { CSP } from './security';

export function serveStatic(res: http.ServerResponse, root: string, pathname: string, extraHeaders: Record<string, string> = {}): void {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    res.writeHead(400).end('bad path');
    return;
  }
  let file = path.resolve(root, `.${rel}`);
  if (!isInside(root, file)) {
    res.writeHead(403).end('refused: outside the app');
    return;
  }
  if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    // Client-side routes: serve the app; missing assets are a real 404.
    if (path.extname(rel) && rel !== '/') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    file = path.join(root, 'index.html');
  }
  if (!fs.existsSync(file)) {
    res
      .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
      .end(`The UI is not built (${file} is missing). Run: npm run build`);
    return;
  }
  const ext = path.extname(file);
  res.writeHead(200, {
    'content-type': contentType(ext),
    'content-security-policy': CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': ext === '.html' ? 'no-store' : 'max-age=3600',
    ...extraHeaders,
  });
  fs.createReadStream(file).pipe(res);
}
