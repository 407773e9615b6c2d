/**
 * Watch the memory sources for edits (SPEC §6: 1.5 s debounce, from
 * `memory.search.sync.watchDebounceMs`). Only the memory set is watched — the workspace root
 * (for MEMORY.md / memory.md / USER.md), `memory/`, extra paths and, when enabled, the sessions
 * folder — never the whole workspace. Changed paths are batched and reported once the
 * debounce window is quiet. `dispose()` closes the watcher and drops a pending batch.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import { isInside as inside } from '../util/path-inside';
import { displayPath, resolveExtraPath, type SourceRoots } from './sources';

export interface MemoryWatcher {
  /** Resolves once the initial scan is done and changes are being reported. */
  ready: Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Start watching; `onChange` gets the changed display paths after `debounceMs` of quiet,
 * `onEvent` is told at once of every event (so a search in the debounce window knows).
 */
export async function watchMemory(
  roots: SourceRoots,
  debounceMs: number,
  onChange: (paths: string[]) => void,
  onEvent?: () => void,
): Promise<MemoryWatcher> {
  const { watch } = await import('chokidar');
  // The workspace the user configured may itself be a symlink (to a synced folder): watch where
  // it leads, as the listing reads through it; symlinks inside it are still never followed.
  const configured = path.resolve(roots.workspace);
  let ws = configured;
  try {
    ws = fs.realpathSync(ws);
  } catch {
    // not there (yet): watched as configured
  }
  const memoryDir = path.join(ws, 'memory');
  // Relative to the workspace as configured, as the listing resolves them (index/sources.ts).
  const extras = roots.extraPaths.map((p) => resolveExtraPath(configured, p));
  const sessions = roots.sources.includes('sessions') ? path.resolve(roots.sessionsDir) : null;
  const memoryOn = roots.sources.includes('memory');

  const wanted = (p: string, isFile: boolean | undefined): boolean => {
    if (sessions && inside(sessions, p)) return p === sessions || !isFile || p.endsWith('.jsonl');
    if (!memoryOn) return false;
    if (p === ws) return true;
    if (extras.some((e) => inside(e, p) || inside(p, e))) return !isFile || p.toLowerCase().endsWith('.md');
    if (inside(memoryDir, p)) return !isFile || p.toLowerCase().endsWith('.md');
    const rel = path.relative(ws, p);
    return rel === 'MEMORY.md' || rel === 'memory.md' || rel === 'USER.md';
  };

  const targets = [...(memoryOn ? [ws, ...extras] : []), ...(sessions ? [sessions] : [])];
  const watcher: FSWatcher = watch(targets, {
    ignoreInitial: true,
    followSymlinks: false,
    // Symlinks inside are never memory (SPEC §6): one leading out of the workspace must not be
    // watched through.
    ignored: (p, stats) => (stats?.isSymbolicLink() === true && !targets.includes(path.resolve(p))) || !wanted(path.resolve(p), stats ? stats.isFile() : undefined),
  });
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const fire = () => {
    timer = undefined;
    const paths = [...pending].sort();
    pending = new Set();
    if (paths.length) onChange(paths);
  };
  const handle = (p: string) => {
    onEvent?.();
    const abs = path.resolve(p);
    const shown = sessions && inside(sessions, abs) ? `sessions/${path.basename(abs)}` : displayPath(inside(ws, abs) ? ws : configured, abs);
    pending.add(shown);
    if (timer) clearTimeout(timer);
    timer = setTimeout(fire, debounceMs);
  };
  for (const ev of ['add', 'change', 'unlink'] as const) watcher.on(ev, handle);
  watcher.on('unlinkDir', handle);
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending.clear();
      await watcher.close();
    },
  };
}
