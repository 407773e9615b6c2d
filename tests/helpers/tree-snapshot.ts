/**
 * "Never writes" checks for tests: a snapshot of every file under a directory (its bytes and
 * mtime), taken after all mtimes were moved into the past. Any write after that — a rewrite,
 * an append, a checkpoint, a temp file, a touched sessions.json — shows up as a changed digest,
 * a new file or an mtime that is no longer the frozen one, even if it rewrote the same bytes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Relative path → sha256 of the bytes and mtime (ms) of every file under a directory. */
export type TreeSnapshot = Record<string, { sha256: string; mtimeMs: number }>;

/** A moment long ago: a write now can never leave a file's mtime equal to it. */
const FROZEN = new Date('2001-01-01T00:00:00Z');

function files(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)))
    .sort();
}

/** Snapshot of every file under `root`, as it is now. */
export function snapshotTree(root: string): TreeSnapshot {
  const out: TreeSnapshot = {};
  for (const rel of files(root)) {
    const abs = path.join(root, rel);
    out[rel] = { sha256: crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex'), mtimeMs: fs.statSync(abs).mtimeMs };
  }
  return out;
}

/** Set every file's mtime under `root` to 2001-01-01, then snapshot it (compare with snapshotTree later). */
export function freezeTree(root: string): TreeSnapshot {
  for (const rel of files(root)) fs.utimesSync(path.join(root, rel), FROZEN, FROZEN);
  return snapshotTree(root);
}
