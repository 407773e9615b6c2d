/**
 * The guards of `cairn serve`: loopback only, a random per-run token on every request,
 * Host and Origin checks against DNS rebinding and cross-site requests, and no CORS.
 */
import crypto from 'node:crypto';
import type http from 'node:http';

export const TOKEN_COOKIE = 'cairn_token';

export function newToken(): string {
  return crypto.randomBytes(24).toString('base64url');
}

/** Host names a browser may use to reach us; anything else is a rebinding attempt. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function allowedOrigins(port: number): Set<string> {
  return new Set([...allowedHosts(port)].map((h) => `http://${h}`));
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

export type Refusal = { status: number; message: string } | undefined;

/**
 * Check one request. Returns a refusal (status + reason) or undefined when it may proceed.
 * `queryToken` is true when the token came in the URL (then the caller sets the cookie).
 */
export function checkRequest(
  req: http.IncomingMessage,
  url: URL,
  opts: { port: number; token: string },
): { refusal: Refusal; queryToken: boolean } {
  const host = req.headers.host ?? '';
  if (!allowedHosts(opts.port).has(host.toLowerCase())) {
    return { refusal: { status: 403, message: `refused: foreign Host header ${JSON.stringify(host)}` }, queryToken: false };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins(opts.port).has(origin.toLowerCase())) {
    return { refusal: { status: 403, message: `refused: foreign Origin ${JSON.stringify(origin)}` }, queryToken: false };
  }
  const auth = req.headers.authorization;
  const bearer = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
  const fromCookie = cookieValue(req.headers.cookie, TOKEN_COOKIE);
  // The token in the URL is only for the first page load, which turns it into the cookie: a
  // URL ends up in history, logs and Referer headers, so the API never accepts one.
  const api = url.pathname.startsWith('/api/');
  if (api && url.searchParams.has('token') && bearer === undefined && fromCookie === undefined) {
    return { refusal: { status: 401, message: 'refused: the API does not take the token in the URL; send it as "Authorization: Bearer <token>" or open the page URL first (it sets the cookie)' }, queryToken: false };
  }
  const fromQuery = api ? undefined : (url.searchParams.get('token') ?? undefined);
  const presented = bearer ?? fromQuery ?? fromCookie;
  if (!presented) return { refusal: { status: 401, message: 'refused: missing token' }, queryToken: false };
  if (!safeEqual(presented, opts.token)) return { refusal: { status: 401, message: 'refused: wrong token' }, queryToken: false };
  return { refusal: undefined, queryToken: fromQuery !== undefined && bearer === undefined };
}

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // No 'unsafe-inline': React sets style props through the CSSOM (el.style), which CSP does not
  // govern; only <style> elements and style="" markup need it, and the renderer has neither.
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
