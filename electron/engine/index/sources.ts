/**
 * Which files are indexed (SPEC §6). `memory`: `MEMORY.md`, `memory.md`, `USER.md`, `memory/**\/*.md`
 * and `extraPaths` (files or directories of `.md`); `sessions` (opt-in): the agent's
 * `sessions/*.jsonl`. Symlinks are skipped everywhere: following them could index (and let
 * `memory_get` read) files outside the workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { MemorySource } from '../../../shared/types/search';
import { walkMarkdown } from '../util/markdown-walk';
import { relativeInsideFast } from '../util/path-inside';
import { abortError } from '../util/abort';
import type { SourceFile } from '../core/session-sources';

export type { SourceFile, VirtualSource } from '../core/session-sources';

export interface SourceRoots {
  workspace: string;
  sessionsDir: string;
  extraPaths: readonly string[];
  sources: readonly MemorySource[];
  /** Sessions of stores other than the sessions dir (OpenClaw's SQLite store), when the sessions source is on. */
  storeSessions?: () => Promise<SourceFile[]>;
}

/** Forward-slash path of `abs` relative to the workspace, or the absolute path when outside it. */
export function displayPath(workspace: string, abs: string): string {
  // Listed files are joined onto the workspace path: the fast prefix test (util/path-inside.ts).
  const rel = relativeInsideFast(workspace, abs);
  if (rel) return rel;
  return abs.split(path.sep).join('/');
}

/** Resolve an extraPaths entry: `~`-free, relative to the workspace. */
export function resolveExtraPath(workspace: string, p: string): string {
  return path.resolve(workspace, p);
}

/** Whether a sessions directory entry is an indexable transcript. */
const isTranscript = (e: fs.Dirent): boolean => e.isFile() && e.name.endsWith('.jsonl') && !e.name.includes('.checkpoint.');

/** Collects listed files once each (by absolute path), then sorts them by shown path. */
class Listing {
  private readonly seen = new Map<string, SourceFile>();
  constructor(private readonly workspace: string) {}
  add(abs: string, source: MemorySource, shown?: string): void {
    if (!this.seen.has(abs)) this.seen.set(abs, { abs, path: shown ?? displayPath(this.workspace, abs), source });
  }
  /** A store session, unless a file already shows under its path (the JSONL copy wins, as in the session list). */
  addVirtual(f: SourceFile): void {
    if (this.seen.has(f.abs) || [...this.seen.values()].some((x) => x.path === f.path)) return;
    this.seen.set(f.abs, f);
  }
  sorted(): SourceFile[] {
    return [...this.seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

/** Entries handled between two yields to the event loop in the async listing. */
const ENTRIES_PER_SLICE = 512;

/**
 * List every file of the enabled sources, sorted by path, without duplicates — without
 * blocking the event loop: directories are read off the main thread (util/markdown-walk.ts),
 * and the per-entry work yields every few hundred entries (checking `signal` there).
 */
export async function listSourceFiles(roots: SourceRoots, signal?: AbortSignal): Promise<SourceFile[]> {
  const out = new Listing(roots.workspace);
  let handled = 0;
  const tick = async () => {
    if (++handled % ENTRIES_PER_SLICE === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw abortError(undefined, 'indexing cancelled');
    }
  };
  const lstatAsync = (p: string) => fs.promises.lstat(p).catch(() => undefined);
  const readDir = (dir: string) => fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [] as fs.Dirent[]);
  const addTree = async (dir: string) => {
    for (const rel of await walkMarkdown(dir, { onEntry: tick })) {
      await tick();
      out.add(path.join(dir, rel), 'memory');
    }
  };
  if (roots.sources.includes('memory')) {
    const top = await fs.promises.readdir(roots.workspace).catch(() => [] as string[]);
    // USER.md: OpenClaw 2026.9's curated preferences file, searched like MEMORY.md (its memory-architecture.md).
    for (const name of ['MEMORY.md', 'memory.md', 'USER.md']) {
      const p = path.join(roots.workspace, name);
      if (top.includes(name) && (await lstatAsync(p))?.isFile()) out.add(p, 'memory');
    }
    const mem = path.join(roots.workspace, 'memory');
    if ((await lstatAsync(mem))?.isDirectory()) await addTree(mem);
    for (const extra of roots.extraPaths) {
      const abs = resolveExtraPath(roots.workspace, extra);
      const st = await lstatAsync(abs);
      if (!st || st.isSymbolicLink()) continue;
      if (st.isDirectory()) await addTree(abs);
      else if (st.isFile() && abs.toLowerCase().endsWith('.md')) out.add(abs, 'memory');
    }
  }
  if (roots.sources.includes('sessions')) {
    for (const e of await readDir(roots.sessionsDir)) {
      await tick();
      if (isTranscript(e)) out.add(path.join(roots.sessionsDir, e.name), 'sessions', `sessions/${e.name}`);
    }
    for (const f of (await roots.storeSessions?.()) ?? []) out.addVirtual(f);
  }
  const files = out.sorted();
  await new Promise<void>((resolve) => setImmediate(resolve));
  return files;
}
