/**
 * Confining the assistant's file tools to the workspace: a path is resolved against the
 * workspace, and refused when it leaves it — by `..`, an absolute path elsewhere, or a
 * symlink (anywhere on the way) that points outside.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The path, resolved and checked, or the reason it is refused. */
export type Resolved = { abs: string; rel: string } | { error: string };

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The deepest existing ancestor of `p` (p itself when it exists). */
function existingAncestor(p: string): string {
  let cur = p;
  while (!fs.existsSync(cur)) {
    const up = path.dirname(cur);
    if (up === cur) return cur;
    cur = up;
  }
  return cur;
}

/** Resolve `input` inside `workspace`; refuses escapes, including through symlinks. */
export function resolveInWorkspace(workspace: string, input: string): Resolved {
  if (!input.trim()) return { error: 'empty path' };
  if (input.includes('\0')) return { error: 'invalid path' };
  const root = path.resolve(workspace);
  const abs = path.resolve(root, input);
  if (!inside(root, abs)) return { error: `${JSON.stringify(input)} is outside the workspace (${root}); only files inside it can be used` };
  // Symlinks: the real location of what exists on the way must still be inside.
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return { error: `the workspace ${root} does not exist` };
  }
  const real = fs.realpathSync(existingAncestor(abs));
  if (!inside(realRoot, real)) return { error: `${JSON.stringify(input)} leads outside the workspace through a symbolic link` };
  return { abs, rel: path.relative(root, abs).split(path.sep).join('/') || '.' };
}
