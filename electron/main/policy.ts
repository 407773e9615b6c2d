/**
 * The Electron window's security policy as pure functions, kept apart from
 * main.ts so it can be tested without Electron: which URLs the app window may show, which
 * links may leave for the system browser, and which web permissions the renderer gets (none:
 * Cairn needs no camera, microphone, notifications, geolocation or clipboard reads).
 */

/** The privileged scheme the renderer is served from (main.ts registers it). */
export const APP_SCHEME = 'cairn-app';
const APP_HOST = 'app';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** True for the app's own pages (cairn-app://app/…): the only place the window may be. */
export function isAppUrl(url: string): boolean {
  const u = parse(url);
  return u !== undefined && u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
}

/**
 * True when `shell.openExternal(url)` is safe: plain http(s) to a host, without user
 * credentials. file:, javascript:, custom schemes (which start other programs with arguments
 * a page controls) and smb:/UNC paths are never handed to the OS.
 */
export function isSafeExternalUrl(url: string): boolean {
  const u = parse(url);
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:')) return false;
  return u.hostname !== '' && u.username === '' && u.password === '';
}

/** What to do when the window (or a frame in it) tries to navigate or is redirected to `url`. */
export function navigationAction(url: string): 'allow' | 'open-external' | 'deny' {
  if (isAppUrl(url)) return 'allow';
  return isSafeExternalUrl(url) ? 'open-external' : 'deny';
}

/**
 * Whether the renderer may use a web permission, for both Electron handlers: the request
 * handler (prompts) and the check handler (synchronous queries such as
 * `navigator.permissions.query`, which the request handler never sees). Always no.
 */
export function permissionAllowed(_permission: string, _requestingUrl: string | undefined): boolean {
  return false;
}
