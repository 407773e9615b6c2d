// @ts-check
/**
 * The content type of each file the built window is made of, by extension: one table for
 * Cairn's own server (electron/server/static.ts) and for the tab the plugin serves inside
 * OpenClaw (tab-files.js). It lives in the plugin's folder, plain JS with no imports, because
 * the plugin — loaded by OpenClaw from its own folder — can load nothing of Cairn's.
 */

/** @type {Readonly<Record<string, string>>} */
const CONTENT_TYPES = Object.freeze({
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
});

/**
 * The content type of a file with extension `ext` (anything unknown is bytes).
 * @param {string} ext the file's extension with its dot, as path.extname gives it
 */
export function contentType(ext) {
  return Object.hasOwn(CONTENT_TYPES, ext) ? /** @type {string} */ (CONTENT_TYPES[ext]) : 'application/octet-stream';
}
