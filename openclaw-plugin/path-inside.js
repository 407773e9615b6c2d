// @ts-check
/**
 * The lexical half of Cairn's one "is this path inside that folder?" rule, in plain JavaScript
 * so the plugin (loaded by OpenClaw from its own folder, where it can load nothing of Cairn's)
 * and the engine (electron/engine/util/path-inside.ts re-exports it, beside the two symlink
 * policies built on it) run the very same code: a second hand-written copy had drifted
 * before. Node built-ins only.
 */
import path from 'node:path';

/**
 * `p` relative to `root` with forward slashes (`''` for `root` itself) when `p` is inside,
 * else undefined. A name that merely starts with two dots (`..notes.md`) is inside.
 * @param {string} root
 * @param {string} p
 * @returns {string | undefined}
 */
export function relativeInside(root, p) {
  const rel = path.relative(path.resolve(root), path.resolve(p));
  if (rel === '') return '';
  if (path.isAbsolute(rel) || rel === '..' || rel.startsWith(`..${path.sep}`)) return undefined;
  return path.sep === '/' ? rel : rel.split(path.sep).join('/');
}
