/**
 * Confining the assistant's file tools to the workspace: a path is resolved against the
 * workspace, and refused when it leaves it — by `..`, an absolute path elsewhere, or a
 * symlink (anywhere on the way) that points outside. The rule itself is util/path-inside.ts;
 * this file words its refusals for the assistant.
 */
import path from 'node:path';
import { resolveInside } from '../../util/path-inside';

/** The path, resolved and checked, or the reason it is refused. */
export type Resolved = { abs: string; rel: string } | { error: string };

/** Resolve `input` inside `workspace`; refuses escapes, including through symlinks. */
export function resolveInWorkspace(workspace: string, input: string): Resolved {
  if (!input.trim()) return { error: 'empty path' };
  if (input.includes('\0')) return { error: 'invalid path' };
  const root = path.resolve(workspace);
  const r = resolveInside(root, input);
  if (r.ok) return { abs: r.abs, rel: r.rel };
  if (r.why === 'outside') return { error: `${JSON.stringify(input)} is outside the workspace (${root}); only files inside it can be used` };
  if (r.why === 'no-root') return { error: `the workspace ${root} does not exist` };
  return { error: `${JSON.stringify(input)} leads outside the workspace through a symbolic link` };
}
