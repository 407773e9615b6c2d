/**
 * Which files are indexed (SPEC §6). `memory`: `MEMORY.md`, `memory.md`, `memory/**\/*.md`
 * and `extraPaths` (files or directories of `.md`); `sessions` (opt-in): the agent's
 * `sessions/*.jsonl`. Symlinks are skipped everywhere: following them could index (and let
 * `memory_get` read) files outside the workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { MemorySource } from '../../../shared/types/search';

/** A file to index: its absolute location and the path shown in results. */
export interface SourceFile {
  abs: string;
  /** Workspace-relative (`memory/2024-05-08.md`), `sessions/<file>.jsonl`, or absolute for extraPaths outside the workspace. */
  path: string;
  source: MemorySource;
}

export interface SourceRoots {
  workspace: string;
  sessionsDir: string;
  extraPaths: readonly string[];
  sources: readonly MemorySource[];
}

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Forward-slash path of `abs` relative to the workspace, or the absolute path when outside it. */
export function displayPath(workspace: string, abs: string): string {
  // Listed files are joined onto the workspace path, so a prefix test is enough (and far
  // cheaper than path.relative per file); anything else goes the long way.
  const root = workspace.endsWith(path.sep) ? workspace : workspace + path.sep;
  if (abs.startsWith(root) && abs.length > root.length) {
    const rel = abs.slice(root.length);
    // A ".." anywhere (even inside a name) takes the careful path below.
    if (!rel.includes('..')) return path.sep === '/' ? rel : rel.split(path.sep).join('/');
  }
  const rel = path.relative(workspace, abs);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  return abs.split(path.sep).join('/');
}

/** Keep a directory entry of a Markdown walk? Symlinks and dot-entries (.git, .obsidian) never. */
function walkEntry(e: fs.Dirent): 'dir' | 'md' | null {
  // Dirent reports symlinks as such (no following): skipped.
  if (e.isSymbolicLink() || e.name.startsWith('.')) return null;
  if (e.isDirectory()) return 'dir';
  return e.isFile() && e.name.toLowerCase().endsWith('.md') ? 'md' : null;
}

function walkMarkdown(dir: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const kind = walkEntry(e);
    if (kind === 'dir') walkMarkdown(path.join(dir, e.name), out);
    else if (kind === 'md') out.push(path.join(dir, e.name));
  }
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
  sorted(): SourceFile[] {
    return [...this.seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

/** List every file of the enabled sources, sorted by path, without duplicates. */
export function listSourceFiles(roots: SourceRoots): SourceFile[] {
  const out = new Listing(roots.workspace);
  if (roots.sources.includes('memory')) {
    // On case-insensitive file systems both names are the same file: list it once, as written.
    let top: string[] = [];
    try {
      top = fs.readdirSync(roots.workspace);
    } catch {
      // no workspace yet
    }
    for (const name of ['MEMORY.md', 'memory.md']) {
      const p = path.join(roots.workspace, name);
      if (top.includes(name) && lstat(p)?.isFile()) out.add(p, 'memory');
    }
    const mem = path.join(roots.workspace, 'memory');
    if (lstat(mem)?.isDirectory()) {
      const files: string[] = [];
      walkMarkdown(mem, files);
      for (const f of files) out.add(f, 'memory');
    }
    for (const extra of roots.extraPaths) {
      const abs = resolveExtraPath(roots.workspace, extra);
      const st = lstat(abs);
      if (!st || st.isSymbolicLink()) continue;
      if (st.isDirectory()) {
        const files: string[] = [];
        walkMarkdown(abs, files);
        for (const f of files) out.add(f, 'memory');
      } else if (st.isFile() && abs.toLowerCase().endsWith('.md')) out.add(abs, 'memory');
    }
  }
  if (roots.sources.includes('sessions')) {
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(roots.sessionsDir, { withFileTypes: true });
    } catch {
      // no sessions yet
    }
    for (const e of entries) if (isTranscript(e)) out.add(path.join(roots.sessionsDir, e.name), 'sessions', `sessions/${e.name}`);
  }
  return out.sorted();
}

/** Entries handled between two yields to the event loop in the async listing. */
const ENTRIES_PER_SLICE = 512;

/**
 * `listSourceFiles` without blocking the event loop: directories are read off the main
 * thread, and the per-entry work yields every few hundred entries. Same files, same order.
 */
export async function listSourceFilesAsync(roots: SourceRoots, signal?: AbortSignal): Promise<SourceFile[]> {
  const out = new Listing(roots.workspace);
  let handled = 0;
  const tick = async () => {
    if (++handled % ENTRIES_PER_SLICE === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw Object.assign(new Error('indexing cancelled'), { name: 'AbortError' });
    }
  };
  const lstatAsync = (p: string) => fs.promises.lstat(p).catch(() => undefined);
  const readDir = (dir: string) => fs.promises.readdir(dir, { withFileTypes: true }).catch(() => [] as fs.Dirent[]);
  const walk = async (dir: string, files: string[]): Promise<void> => {
    for (const e of await readDir(dir)) {
      await tick();
      const kind = walkEntry(e);
      if (kind === 'dir') await walk(path.join(dir, e.name), files);
      else if (kind === 'md') files.push(path.join(dir, e.name));
    }
  };
  const addAll = async (files: string[]) => {
    for (const f of files) {
      await tick();
      out.add(f, 'memory');
    }
  };
  if (roots.sources.includes('memory')) {
    const top = await fs.promises.readdir(roots.workspace).catch(() => [] as string[]);
    for (const name of ['MEMORY.md', 'memory.md']) {
      const p = path.join(roots.workspace, name);
      if (top.includes(name) && (await lstatAsync(p))?.isFile()) out.add(p, 'memory');
    }
    const mem = path.join(roots.workspace, 'memory');
    if ((await lstatAsync(mem))?.isDirectory()) {
      const files: string[] = [];
      await walk(mem, files);
      await addAll(files);
    }
    for (const extra of roots.extraPaths) {
      const abs = resolveExtraPath(roots.workspace, extra);
      const st = await lstatAsync(abs);
      if (!st || st.isSymbolicLink()) continue;
      if (st.isDirectory()) {
        const files: string[] = [];
        await walk(abs, files);
        await addAll(files);
      } else if (st.isFile() && abs.toLowerCase().endsWith('.md')) out.add(abs, 'memory');
    }
  }
  if (roots.sources.includes('sessions')) {
    for (const e of await readDir(roots.sessionsDir)) {
      await tick();
      if (isTranscript(e)) out.add(path.join(roots.sessionsDir, e.name), 'sessions', `sessions/${e.name}`);
    }
  }
  const files = out.sorted();
  await new Promise<void>((resolve) => setImmediate(resolve));
  return files;
}
