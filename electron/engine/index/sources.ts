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
  const rel = path.relative(workspace, abs);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  return abs.split(path.sep).join('/');
}

function walkMarkdown(dir: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    // Dirent reports symlinks as such (no following): skipped, as are dot-dirs (.git, .obsidian).
    if (e.isSymbolicLink() || e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walkMarkdown(p, out);
    else if (e.isFile() && e.name.toLowerCase().endsWith('.md')) out.push(p);
  }
}

/** Resolve an extraPaths entry: `~`-free, relative to the workspace. */
export function resolveExtraPath(workspace: string, p: string): string {
  return path.resolve(workspace, p);
}

/** List every file of the enabled sources, sorted by path, without duplicates. */
export function listSourceFiles(roots: SourceRoots): SourceFile[] {
  const seen = new Map<string, SourceFile>();
  const add = (abs: string, source: MemorySource, shown?: string) => {
    if (!seen.has(abs)) seen.set(abs, { abs, path: shown ?? displayPath(roots.workspace, abs), source });
  };
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
      if (top.includes(name) && lstat(p)?.isFile()) add(p, 'memory');
    }
    const mem = path.join(roots.workspace, 'memory');
    if (lstat(mem)?.isDirectory()) {
      const files: string[] = [];
      walkMarkdown(mem, files);
      for (const f of files) add(f, 'memory');
    }
    for (const extra of roots.extraPaths) {
      const abs = resolveExtraPath(roots.workspace, extra);
      const st = lstat(abs);
      if (!st || st.isSymbolicLink()) continue;
      if (st.isDirectory()) {
        const files: string[] = [];
        walkMarkdown(abs, files);
        for (const f of files) add(f, 'memory');
      } else if (st.isFile() && abs.toLowerCase().endsWith('.md')) add(abs, 'memory');
    }
  }
  if (roots.sources.includes('sessions')) {
    let entries: fs.Dirent[] = [];
    try {
      entries = fs.readdirSync(roots.sessionsDir, { withFileTypes: true });
    } catch {
      // no sessions yet
    }
    for (const e of entries) {
      if (!e.isFile() || !e.name.endsWith('.jsonl') || e.name.includes('.checkpoint.')) continue;
      add(path.join(roots.sessionsDir, e.name), 'sessions', `sessions/${e.name}`);
    }
  }
  return [...seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
