// @ts-check
/**
 * Cairn's window as a tab in OpenClaw's own Control UI: a `surface: "tab"`
 * descriptor, the Gateway-authenticated route the Control UI frames, and a public route for
 * the window's static code. What the frame may do is fixed by OpenClaw 2026.9 (read in its
 * dist/, see docs/openclaw.md "The Cairn tab"):
 *
 * - The frame is `sandbox="allow-scripts"` (the default `gateway.controlUi.embedSandbox`): an
 *   opaque origin. Its grant is a short-lived, HttpOnly, `SameSite=None` cookie on the route
 *   root, accepted for GET and HEAD only, with `operator.read`. The frame's own navigation
 *   carries it (the Control UI above it is same-site); a fetch or script load made *by* the
 *   opaque frame is cross-site, and Chromium (156, measured) sends no such cookie on it: script
 *   fetches cannot carry the grant.
 * - So the grant guards the page (`/cairn-tab/`, a navigation), and the page carries a
 *   capability for the reads: a random token minted for that page load, sent as `k` to the read
 *   API (`/cairn-tab-api/<channel>?k=<token>&q=<json request>`), a plugin-auth route that checks
 *   the token itself. A token lives while the page uses it (idle expiry) and dies with the
 *   Gateway process. The page is `no-store`, has no CORS header and may be framed only by the
 *   Gateway's own origin, so no other site can read a token out of it.
 * - The built renderer's files (code, no user data) are served without credentials from
 *   `/cairn-tab-assets/`, like OpenClaw's own public widget resources.
 *
 * Every read goes through the plugin's one bridge (bridge-client.js, op `read`), answered by
 * Cairn's engine for the read-only channels of shared/tab-door.ts only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathUnder, refuseWrites, rendererDirOf, rendererFile, sendText, serveAsset, TAB_ASSETS_ROUTE } from './tab-files.js';

/** The Gateway-auth route: the page. */
export const TAB_ROUTE = '/cairn-tab';
/** The token-checked read API (plugin auth: the token comes from a page behind the grant). */
export const TAB_API_ROUTE = '/cairn-tab-api';
/** The tab's Control UI address: `<basePath>/cairn`. */
export const TAB_SLUG = 'cairn';

/** How long a read may take once Cairn runs, and how long the tab waits while it starts (then: "starting" and a retry). */
const READ_BUDGET_MS = 30_000;
const STARTING_WAIT_MS = 3_500;

const TOKENS = Symbol.for('cairn.openclaw-plugin.tab-tokens');
/** A page's token expires this long after its last read (the frame then reloads, through the grant). */
const TOKEN_IDLE_MS = 10 * 60_000;
/** At most this many live pages; the least recently used token goes first. */
const TOKEN_MAX = 256;

/** token → time of its last use, for this OpenClaw process (registrations share it). */
function tokens() {
  const g = /** @type {Record<symbol, Map<string, number> | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (g[TOKENS] ??= new Map());
}

/** A new token for one page load. */
function mintToken() {
  const all = tokens();
  const token = crypto.randomBytes(24).toString('base64url');
  all.set(token, Date.now());
  for (const k of all.keys()) {
    if (all.size <= TOKEN_MAX) break;
    all.delete(k);
  }
  return token;
}

/**
 * Whether `token` is live; a live one is renewed (moved last: least recently used first).
 * @param {string} token
 * @returns {'ok' | 'expired' | 'unknown'}
 */
function useToken(token) {
  const all = tokens();
  const at = all.get(token);
  if (at === undefined) return 'unknown';
  all.delete(token);
  if (Date.now() - at > TOKEN_IDLE_MS) return 'expired';
  all.set(token, Date.now());
  return 'ok';
}

/**
 * The page's CSP: the frame's origin is opaque, so `'self'` may not name the Gateway: its host
 * (as the browser addressed it) is named too. Framed only by the Gateway's own pages.
 * @param {import('node:http').IncomingMessage} req
 */
function pageCsp(req) {
  const host = String(req.headers.host ?? '');
  const gw = /^[A-Za-z0-9.\-[\]:]{1,300}$/.test(host) ? ` ${host}` : '';
  return [
    "default-src 'none'",
    `script-src 'self'${gw}`,
    `style-src 'self'${gw} 'unsafe-inline'`,
    `img-src 'self'${gw} data: blob:`,
    `font-src 'self'${gw} data:`,
    `connect-src 'self'${gw}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * @param {string} s
 */
const escapeHtml = (s) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The window's index.html for the tab: assets from the public route, the door, API base and
 * key as meta tags; or a plain page saying why there is no window.
 * @param {string} root
 */
function pageHtml(root) {
  const index = rendererFile(root, 'index.html');
  if (!index) {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cairn</title></head><body><main><h1>Cairn's window is not here</h1><p>The Gateway host has no built window at ${escapeHtml(path.join(root, 'index.html'))}. Build it there (<code>npm run build</code> in Cairn's folder) or run <code>cairn connect openclaw</code> again from the Cairn you use.</p></main></body></html>`;
  }
  const meta = [
    '<meta name="cairn-door" content="tab">',
    `<meta name="cairn-tab-api" content="${TAB_API_ROUTE}/">`,
    `<meta name="cairn-tab-key" content="${mintToken()}">`,
  ].join('');
  return fs
    .readFileSync(index, 'utf8')
    .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/i, '')
    .replace(/(["'])\.\/(assets\/|favicon\.svg)/g, `$1${TAB_ASSETS_ROUTE}/$2`)
    .replace(/<head>/i, `<head>${meta}`)
    .replace(/<noscript>[\s\S]*?<\/noscript>/i, '')
    .replace(/<body>/i, `<body><noscript><p>Cairn's tab needs scripts: set gateway.controlUi.embedSandbox to "scripts" (the default).</p></noscript>`);
}

/**
 * @typedef {object} TabBridge the part of bridge-client.js's CairnBridge the tab uses
 * @property {boolean} ready
 * @property {string} lastExit
 * @property {() => Promise<unknown>} start
 * @property {(op: 'read', args: { channel: string, request?: Record<string, unknown> }, budgetMs: number) => Promise<unknown>} send
 * @property {import('node:child_process').ChildProcess | null} child
 */

/**
 * One read through the bridge. While Cairn starts, waits at most STARTING_WAIT_MS, then says it
 * is starting (the tab retries); a Cairn that cannot run says why.
 * @param {TabBridge} bridge
 * @param {string} channel
 * @param {Record<string, unknown>} request
 * @returns {Promise<{ status: number, body: unknown }>}
 */
async function readThrough(bridge, channel, request) {
  const wasReady = bridge.ready;
  /** @type {string} */
  let startError = '';
  if (!bridge.child) {
    bridge.start().catch((/** @type {Error} */ err) => {
      startError = err.message;
    });
  }
  const answer = bridge.send('read', { channel, request }, READ_BUDGET_MS);
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const starting = new Promise((resolve) => {
    timer = setTimeout(() => resolve('starting'), wasReady ? READ_BUDGET_MS + 1000 : STARTING_WAIT_MS);
  });
  try {
    const got = await Promise.race([answer, starting]);
    if (got === 'starting') return { status: 503, body: { ok: false, error: { code: 'unavailable', message: 'Cairn is starting on the Gateway host…', starting: true } } };
    return { status: 200, body: got };
  } catch (err) {
    const e = /** @type {Error & { kind?: string }} */ (err);
    const why = startError || bridge.lastExit || e.message;
    const message = e.kind === 'timeout' ? `Cairn did not answer ${channel} within ${READ_BUDGET_MS / 1000} s` : `Cairn is not running on the Gateway host: ${why}. Check "cairn doctor" there, and run "cairn connect openclaw" again if Cairn moved.`;
    return { status: e.kind === 'timeout' ? 504 : 503, body: { ok: false, error: { code: 'unavailable', message } } };
  } finally {
    clearTimeout(timer);
    answer.catch(() => {});
  }
}

/**
 * The Gateway-auth route: `/cairn-tab/`, the page (a new token each time).
 * @param {string} root
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
function servePage(root, req, res) {
  if (refuseWrites(req, res)) return;
  const under = pathUnder(req.url, TAB_ROUTE);
  if (!under) return sendText(res, 400, 'refused: not a clean path under the Cairn tab');
  if (under.rest !== '' && under.rest !== '/' && under.rest !== '/index.html') return sendText(res, 404, 'not found');
  res.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': pageCsp(req),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : pageHtml(root));
}

/**
 * The read API: `/cairn-tab-api/<channel>?k=<token>&q=<json>`. Answers are cacheable per
 * state change: the answer's own hash is its ETag, and the browser revalidates.
 * @param {TabBridge} bridge
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function serveRead(bridge, req, res) {
  if (refuseWrites(req, res)) return;
  const under = pathUnder(req.url, TAB_API_ROUTE);
  const m = under ? /^\/([a-zA-Z.]+)$/.exec(under.rest) : null;
  // The frame's fetches come from an opaque origin ("null"); they carry no credentials.
  const cors = req.headers.origin === 'null' ? { 'access-control-allow-origin': 'null', vary: 'Origin' } : {};
  const json = (/** @type {number} */ status, /** @type {unknown} */ body, /** @type {Record<string, string>} */ extra = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...cors, ...extra });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
  };
  if (!under || !m) return json(404, { ok: false, error: { code: 'not_found', message: 'not a read of the Cairn tab' } });
  const state = useToken(under.query.get('k') ?? '');
  if (state !== 'ok') {
    const message = state === 'expired' ? 'This Cairn page was idle too long: it reloads through the Control UI.' : "This read needs the token of a Cairn page opened from OpenClaw's Control UI.";
    return json(403, { ok: false, error: { code: 'forbidden', message, expired: state === 'expired' } });
  }
  /** @type {Record<string, unknown>} */
  let request = {};
  try {
    const q = JSON.parse(under.query.get('q') || '{}');
    if (typeof q !== 'object' || q === null || Array.isArray(q)) throw new Error('a request must be a JSON object');
    request = q;
  } catch (err) {
    return json(400, { ok: false, error: { code: 'bad_request', message: `q is not a JSON object: ${/** @type {Error} */ (err).message}` } });
  }
  const { status, body } = await readThrough(bridge, /** @type {string} */ (m[1]), request);
  if (status !== 200) return json(status, body, status === 503 ? { 'retry-after': '1' } : {});
  const text = JSON.stringify(body);
  const etag = `"${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
  const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-cache', etag, 'x-content-type-options': 'nosniff', ...cors };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers);
    return void res.end();
  }
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : text);
}

/**
 * Register the tab: its descriptor and both routes. Nothing starts here: the first read starts
 * Cairn if `gateway_start` has not.
 * @param {any} api OpenClaw's plugin API
 * @param {TabBridge} bridge
 * @param {string} bin
 * @param {{ warn?: (m: string) => void }} log
 */
export function registerCairnTab(api, bridge, bin, log) {
  const register = api.session?.controls?.registerControlUiDescriptor ?? api.registerControlUiDescriptor;
  if (typeof register !== 'function' || typeof api.registerHttpRoute !== 'function') return;
  const root = rendererDirOf(bin);
  api.registerHttpRoute({
    path: TAB_ROUTE,
    auth: 'gateway',
    match: 'prefix',
    handler: (/** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res) => {
      servePage(root, req, res);
      return true;
    },
  });
  api.registerHttpRoute({
    path: TAB_API_ROUTE,
    auth: 'plugin',
    match: 'prefix',
    handler: async (/** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res) => {
      try {
        await serveRead(bridge, req, res);
      } catch (err) {
        log.warn?.(`cairn: the tab's ${req.url} failed: ${/** @type {Error} */ (err).message}`);
        if (!res.headersSent) sendText(res, 500, 'Cairn tab error');
        else res.end();
      }
      return true;
    },
  });
  api.registerHttpRoute({
    path: TAB_ASSETS_ROUTE,
    auth: 'plugin',
    match: 'prefix',
    handler: (/** @type {import('node:http').IncomingMessage} */ req, /** @type {import('node:http').ServerResponse} */ res) => {
      serveAsset(root, req, res);
      return true;
    },
  });
  register.call(api.session?.controls ?? api, {
    surface: 'tab',
    id: 'cairn',
    label: 'Memory · Cairn',
    description: "Cairn's window, read-only: sessions, compactions, memory, MEMORY.md history and search",
    icon: 'brain',
    group: 'agent',
    path: `${TAB_ROUTE}/`,
    slug: TAB_SLUG,
  });
}
