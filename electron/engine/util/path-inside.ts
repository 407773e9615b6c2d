/**
 * The one "is this path inside that folder?" rule of the engine (five
 * copies had drifted — one followed symlinks, one refused them, one took a file named
 * `..notes.md` for an escape). Every confinement of a path to a folder goes through here:
 * the chat tools' workspace (chat/tools/workspace-path.ts), the memory flush's tools
 * (compaction/flush-tools.ts), the memory set (index/memory-paths.ts), the watcher's filter
 * (index/watcher.ts) and the index's display paths (index/sources.ts).
 *
 * Two symlink policies, both here:
 *   - {@link resolveInside}: a symlink may be used when what it leads to is still inside the
 *     folder's real location (the assistant's workspace tools);
 *   - {@link firstSymlinkOnTheWay}: no symlink at all between the folder and the file (the
 *     memory set: SPEC §6 and §8, memory files must be real files inside the workspace).
 * `npm run lint` (tests/unit/path-inside-one-rule.test.ts) fails on a second copy.
 */
import fs from 'node:fs';
import path from 'node:path';
import { relativeInside as pluginRelativeInside } from '../../../openclaw-plugin/path-inside.js';

/**
 * Lexical containment: `p` is `root` itself or below it, after resolving both (`..`
 * segments, relative paths). Symlinks are not looked at: see the two policies above.
 */
export function isInside(root: string, p: string): boolean {
  return relativeInside(root, p) !== undefined;
}

/**
 * `p` relative to `root` with forward slashes (`''` for `root` itself) when `p` is inside,
 * else undefined. A name that merely starts with two dots (`..notes.md`) is inside. Written
 * once in openclaw-plugin/path-inside.js, which the plugin (plain JS in its own folder) runs too.
 */
export const relativeInside: (root: string, p: string) => string | undefined = pluginRelativeInside;

/**
 * {@link relativeInside} for paths already joined onto `root` (a listing): a prefix test,
 * far cheaper than path.relative per file, falling back to it for anything unusual.
 */
export function relativeInsideFast(root: string, abs: string): string | undefined {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (abs.startsWith(prefix) && abs.length > prefix.length) {
    const rel = abs.slice(prefix.length);
    // A ".." anywhere (even inside a name) takes the careful path.
    if (!rel.includes('..')) {
      return path.sep === '/' ? rel : rel.split(path.sep).join('/');
    }
  }
  return relativeInside(root, abs);
}

/**
 * The deepest existing ancestor of `p` (p itself when it exists). A dangling symlink does not
 * "exist" here: a write through it fails (mkdir EEXIST) or replaces the link itself (rename),
 * never lands where it points.
 */
function existingAncestor(p: string): string {
  let cur = p;
  while (!fs.existsSync(cur)) {
    const up = path.dirname(cur);
    if (up === cur) return cur;
    cur = up;
  }
  return cur;
}

/** Why {@link resolveInside} refused a path, or where it leads. */
export type Inside =
  | { ok: true; abs: string; rel: string }
  | { ok: false; why: 'outside' | 'symlink-escape' | 'no-root' };

/**
 * Resolve `input` against `root` and confine it there, following symlinks: refused when it
 * leaves `root` lexically (`..`, an absolute path elsewhere), when `root` does not exist, or
 * when the real location of what exists on the way (a symlinked folder or file) is outside
 * `root`'s real location. `rel` has forward slashes, `.` for root.
 */
export function resolveInside(root: string, input: string): Inside {
  const base = path.resolve(root);
  const abs = path.resolve(base, input);
  const rel = relativeInside(base, abs);
  if (rel === undefined) return { ok: false, why: 'outside' };
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(base);
  } catch {
    return { ok: false, why: 'no-root' };
  }
  let real: string;
  try {
    real = fs.realpathSync(existingAncestor(abs));
  } catch {
    return { ok: false, why: 'symlink-escape' }; // a symlink loop (ELOOP) or a link we may not follow
  }
  if (!isInside(realRoot, real)) return { ok: false, why: 'symlink-escape' };
  return { ok: true, abs, rel: rel || '.' };
}

/**
 * The first symlink met walking down from `root` (not checked itself) to `abs`, as a path
 * relative to `root`; undefined when there is none (parts that do not exist yet end the walk).
 */
export function firstSymlinkOnTheWay(root: string, abs: string): string | undefined {
  const rel = relativeInside(root, abs);
  if (rel === undefined || rel === '') return undefined;
  let cur = path.resolve(root);
  for (const part of rel.split('/')) {
    cur = path.join(cur, part);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(cur);
    } catch {
      return undefined;
    }
    if (st.isSymbolicLink()) return path.relative(root, cur).split(path.sep).join('/');
  }
  return undefined;
}
