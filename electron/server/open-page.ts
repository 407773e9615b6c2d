/**
 * The private page `cairn serve --open` hands the browser instead of the tokened URL: a
 * browser's command line is readable by every local user (/proc/<pid>/cmdline), and the
 * token opens the whole API. So the browser is started on `file:///…/open/serve-<pid>-….html`,
 * a page only this user can read (0600, in a 0700 folder of Cairn's data dir) that sends the
 * browser on to `http://127.0.0.1:<port>/?token=…` — the way Jupyter opens its notebook
 * server. The server turns the token into an HttpOnly cookie and the UI drops it from the
 * address (renderer/src/transport/http.ts). The page is removed when the server stops, and
 * pages of servers that died without removing theirs go with the next one written.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cairnDataDir } from '../engine/config/data-dir';
import { PRIVATE_FILE_MODE, writeFileAtomicSync } from '../engine/util/atomic-write';
import { processExists } from '../engine/util/process-alive';

/** Mode of a folder that holds secrets: owner only. */
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Make `dir` (and its parents) and hold it to owner-only: a folder that exists already must be
 * a real folder of this user (not a symlink someone planted), and is narrowed to 0700.
 */
export function ensurePrivateDir(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a folder (a symlink?): refusing to keep a secret there`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${dir} belongs to another user: refusing to keep a secret there`);
  if (process.platform !== 'win32' && (st.mode & 0o777) !== PRIVATE_DIR_MODE) fs.chmodSync(dir, PRIVATE_DIR_MODE);
  return dir;
}

/** Where the open pages live: `<data>/open/` (0700). */
export function openPagesDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(cairnDataDir(env), 'open');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's HTML: a refresh to `url`, a script that replaces the page (kept out of history), and a link. */
export function openPageHtml(url: string): string {
  const href = escapeHtml(url);
  // JSON.stringify alone would let "</script>" end the script: escape "<" too.
  const js = JSON.stringify(url).replace(/</g, '\\u003c');
  return [
    '<!doctype html>',
    '<html><head><meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0;url=${href}">`,
    '<title>Opening Cairn…</title></head>',
    `<body><p>Opening Cairn… If nothing happens, <a href="${href}">continue</a>.</p>`,
    `<script>location.replace(${js})</script></body></html>`,
    '',
  ].join('\n');
}

/** A written open page: its file, the `file://` URL to give the browser, and its removal. */
export interface OpenPage {
  file: string;
  href: string;
  remove(): void;
}

/** Remove the pages of servers that are gone (killed before they could remove their own). */
function sweepStalePages(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    const pid = /^serve-(\d+)-[0-9a-f]+\.html$/.exec(name)?.[1];
    if (pid && Number(pid) !== process.pid && !processExists(Number(pid))) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** Write the private page that forwards to `url` (which carries the token). */
export function writeOpenPage(url: string, env: NodeJS.ProcessEnv = process.env): OpenPage {
  const dir = ensurePrivateDir(openPagesDir(env));
  sweepStalePages(dir);
  const file = path.join(dir, `serve-${process.pid}-${crypto.randomBytes(4).toString('hex')}.html`);
  writeFileAtomicSync(file, openPageHtml(url), { mode: PRIVATE_FILE_MODE });
  return { file, href: pathToFileURL(file).href, remove: () => fs.rmSync(file, { force: true }) };
}
