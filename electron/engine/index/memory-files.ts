/**
 * The memory browser's file operations: list the memory set (MEMORY.md, daily notes with
 * their dates, other notes, extra paths) and write a memory file atomically with a conflict
 * check against the mtime the editor loaded.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { MemoryFileInfo, MemoryFileText } from '../../../shared/types/search';
import { EngineError } from '../core/errors';
import { writeFileAtomicSync } from '../util/atomic-write';
import { dateFromPath } from './chunk-context';
import { MemoryPathError, resolveMemoryPath, type MemoryPathRoots } from './memory-paths';
import { listSourceFiles } from './sources';

/** Every memory file: MEMORY.md first, then daily notes newest first, then other notes by path. */
export async function listMemoryFiles(roots: MemoryPathRoots): Promise<MemoryFileInfo[]> {
  const files = await listSourceFiles({ workspace: roots.workspace, sessionsDir: '', extraPaths: roots.extraPaths, sources: ['memory'] });
  const out: MemoryFileInfo[] = [];
  // Stats off the main thread, a group at a time, like the index's dirty check.
  const stats: (fs.Stats | null)[] = [];
  for (let i = 0; i < files.length; i += 64) {
    stats.push(...(await Promise.all(files.slice(i, i + 64).map((f) => fs.promises.stat(f.abs).catch(() => null)))));
  }
  for (const [i, f] of files.entries()) {
    const st = stats[i];
    if (!st) continue; // vanished since the listing
    const date = dateFromPath(f.path);
    const top = f.path === 'MEMORY.md' || f.path === 'memory.md' || f.path === 'USER.md';
    const inMemoryDir = f.path.startsWith('memory/');
    const kind = top ? 'long-term' : date && inMemoryDir ? 'daily' : inMemoryDir ? 'note' : 'extra';
    out.push({ path: f.path, kind, date, size: st.size, mtime: st.mtimeMs });
  }
  const rank = { 'long-term': 0, daily: 1, note: 2, extra: 3 } as const;
  return out.sort((a, b) => rank[a.kind] - rank[b.kind] || (a.kind === 'daily' ? (b.date ?? '').localeCompare(a.date ?? '') : a.path.localeCompare(b.path)));
}

/**
 * Write a memory file atomically. `expectedMtime` (what the editor loaded; omit for a new
 * file) must match the file on disk, else a conflict error: someone else changed it.
 */
export function writeMemoryFile(roots: MemoryPathRoots, input: string, text: string, expectedMtime?: number): MemoryFileText {
  const r = resolveMemoryPath(roots, input);
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(r.abs);
  } catch {
    st = undefined;
  }
  if (st && !st.isFile()) throw new MemoryPathError('forbidden', `${JSON.stringify(input)}: refused: not a regular file`);
  if (expectedMtime !== undefined) {
    if (!st) throw new MemoryConflictError(`${r.path} was deleted on disk since it was opened; save again to recreate it`);
    if (Math.abs(st.mtimeMs - expectedMtime) > 0.5) {
      throw new MemoryConflictError(`${r.path} changed on disk since it was opened (reload it, or save again to overwrite)`);
    }
  }
  fs.mkdirSync(path.dirname(r.abs), { recursive: true });
  writeFileAtomicSync(r.abs, text);
  const after = fs.statSync(r.abs);
  return { path: r.path, text, size: after.size, mtime: after.mtimeMs };
}

export class MemoryConflictError extends EngineError {
  declare readonly code: 'conflict';
  constructor(message: string) {
    super('conflict', message);
    this.name = 'MemoryConflictError';
  }
}
