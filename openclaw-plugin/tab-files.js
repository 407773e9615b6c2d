// @ts-check
/**
 * The files and paths of the Cairn tab (tab.js): where Cairn's built window is, the only paths
 * the tab's routes accept (no `..`, no encoded slash, backslash or dot), the renderer's files
 * whose real path stays inside its folder, and the public route that serves them. GET and HEAD
 * only, as the Gateway's grant for the frame.
 */
import fs from 'node:fs';
import path from 'node:path';
import { contentType } from './content-types.js';
import { relativeInside } from './path-inside.js';

/** The public route: the renderer's built files only. */
export const TAB_ASSETS_ROUTE = '/cairn-tab-assets';

/**
 * Where Cairn's built window is: `dist/renderer` beside `bin/` of the Cairn the plugin starts
 * (inside a packaged app, its unpacked copy).
 * @param {string} bin absolute bin/cairn.mjs
 */
export function rendererDirOf(bin) {
  return path.resolve(path.dirname(bin), '..', 'dist', 'renderer').replace(`app.asar${path.sep}`, `app.asar.unpacked${path.sep}`);
}

/**
 * The path after `prefix`, or null when it is not a clean path under it: an encoded slash,
 * backslash or dot, a `.`/`..` segment, or a malformed escape is refused, never resolved.
 * @param {string | undefined} url the request's raw URL
 * @param {string} prefix
 * @returns {{ rest: string, query: URLSearchParams } | null}
 */
export function pathUnder(url, prefix) {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  if (rawPath !== prefix && !rawPath.startsWith(`${prefix}/`)) return null;
  if (/%(2f|5c|2e|00)|\\/i.test(rawPath)) return null;
  let decoded;
  try {
    decoded = decodeURIComponent(rawPath.slice(prefix.length));
  } catch {
    return null;
  }
  // A `.` or `..` segment is refused, not resolved: the clean path is the path as written.
  const asWritten = `/${decoded}`.replace(/\/{2,}/g, '/');
  if (path.posix.normalize(asWritten) !== asWritten) return null;
  return { rest: decoded, query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {string} text
 * @param {Record<string, string>} [headers]
 */
export function sendText(res, status, text, headers = {}) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  res.end(text);
}

/**
 * GET and HEAD only: anything else is 405 (the grant would not carry it either).
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
export function refuseWrites(req, res) {
  if (req.method === 'GET' || req.method === 'HEAD') return false;
  sendText(res, 405, 'The Cairn tab is read-only: GET and HEAD only.', { allow: 'GET, HEAD' });
  return true;
}

/**
 * A file of the built renderer, or null: only regular files whose real path stays inside the
 * real renderer dir (a symlink out of it is refused).
 * @param {string} root
 * @param {string} rel
 */
export function rendererFile(root, rel) {
  try {
    const realRoot = fs.realpathSync(root);
    const real = fs.realpathSync(path.join(root, rel));
    if (relativeInside(realRoot, real) === undefined) return null;
    return fs.statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

/**
 * The public files: `/cairn-tab-assets/assets/*` and the favicon, immutable (hashed names).
 * @param {string} root
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
export function serveAsset(root, req, res) {
  if (refuseWrites(req, res)) return;
  const under = pathUnder(req.url, TAB_ASSETS_ROUTE);
  const rel = under?.rest ?? '';
  const file = (rel.startsWith('/assets/') && !rel.slice(8).includes('/')) || rel === '/favicon.svg' ? rendererFile(root, rel) : null;
  if (!under || !file) return sendText(res, 404, 'not found');
  res.writeHead(200, {
    'content-type': contentType(path.extname(file)),
    'cache-control': rel === '/favicon.svg' ? 'public, max-age=3600' : 'public, max-age=31536000, immutable',
    // Module scripts and CSS from the opaque frame are anonymous CORS requests.
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') return void res.end();
  fs.createReadStream(file).pipe(res);
}
