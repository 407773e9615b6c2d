/**
 * The QMD collections an agent should have, and bringing QMD's list in line with them.
 *
 * - `memory-root`: the workspace, mask `{MEMORY,memory}.md` (long-term memory);
 * - `memory-dir`: `workspace/memory`, mask `**\/*.md` (daily and evergreen notes);
 * - `extra-<n>`: each `memory.search.extraPaths` entry (a directory, or one file);
 * - `sessions` (when `memory.qmd.sessions.enabled`): the exported transcripts.
 * The first three exist only with `includeDefaultMemory`. Each collection knows how to turn
 * a QMD handle back into the path Cairn shows (`memory/2026-11-01.md`, `sessions/<id>.jsonl`).
 *
 * The home is private to Cairn, so a collection QMD lists that is not wanted here (renamed,
 * a path that moved, a source turned off) is removed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { MemorySource } from '../../../shared/types/search';
import { displayPath } from '../index/sources';
import { walkMarkdown } from '../util/markdown-walk';
import { handleLookup } from './handles';

/** One collection as Cairn wants it. */
export interface WantedCollection {
  name: string;
  /** Absolute directory QMD indexes. */
  dir: string;
  /** QMD's `--mask` glob. */
  pattern: string;
  source: MemorySource;
  /** Collection-relative paths of the files it holds now (for handle lookup and the change snapshot). */
  files(): Promise<string[]>;
  /** The path shown in results for a collection-relative path. */
  display(rel: string): string;
}

/** One collection as QMD reports it (path/pattern unknown when the listing did not say). */
export interface ListedCollection {
  name: string;
  path?: string | undefined;
  pattern?: string | undefined;
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function escapeGlob(name: string): string {
  return name.replace(/[*?[\]{}()!\\]/g, '\\$&');
}

export interface WantedInput {
  workspace: string;
  extraPaths: readonly string[];
  includeDefaultMemory: boolean;
  sessionsEnabled: boolean;
  /** Where exported transcripts are written (the QMD home's `sessions/`). */
  sessionsExportDir: string;
}

/** The collections this agent should have (directories that do not exist are left out). */
export function wantedCollections(input: WantedInput): WantedCollection[] {
  const ws = input.workspace;
  const out: WantedCollection[] = [];
  if (input.includeDefaultMemory) {
    if (isDir(ws)) {
      out.push({
        name: 'memory-root',
        dir: ws,
        pattern: '{MEMORY,memory}.md',
        source: 'memory',
        files: async () => ['MEMORY.md', 'memory.md'].filter((n) => fs.existsSync(path.join(ws, n))),
        display: (rel) => rel,
      });
    }
    const memDir = path.join(ws, 'memory');
    if (isDir(memDir)) {
      out.push({
        name: 'memory-dir',
        dir: memDir,
        pattern: '**/*.md',
        source: 'memory',
        files: () => walkMarkdown(memDir),
        display: (rel) => `memory/${rel}`,
      });
    }
    input.extraPaths.forEach((p, i) => {
      const abs = path.resolve(ws, p);
      let st: fs.Stats;
      try {
        st = fs.lstatSync(abs);
      } catch {
        return;
      }
      const name = `extra-${i + 1}`;
      if (st.isDirectory()) {
        out.push({ name, dir: abs, pattern: '**/*.md', source: 'memory', files: () => walkMarkdown(abs), display: (rel) => displayPath(ws, path.join(abs, rel)) });
      } else if (st.isFile() && abs.toLowerCase().endsWith('.md')) {
        const dir = path.dirname(abs);
        const base = path.basename(abs);
        out.push({ name, dir, pattern: escapeGlob(base), source: 'memory', files: async () => [base], display: (rel) => displayPath(ws, path.join(dir, rel)) });
      }
    });
  }
  if (input.sessionsEnabled) {
    const dir = input.sessionsExportDir;
    out.push({
      name: 'sessions',
      dir,
      pattern: '*.md',
      source: 'sessions',
      files: async () => (await fs.promises.readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.md')),
      // One exported file per transcript, line-aligned with it: cite the JSONL itself.
      display: (rel) => `sessions/${rel.replace(/\.md$/, '.jsonl')}`,
    });
  }
  return out;
}

/**
 * Parse `qmd collection list --json`. Versions that print JSON give name/path/pattern;
 * versions that ignore `--json` print text (`name (qmd://name/)` headers, `Pattern:` lines),
 * from which names and patterns are read and paths stay unknown.
 */
export function parseCollectionList(stdout: string): ListedCollection[] {
  const text = stdout.trim();
  if (text.startsWith('[') || text.startsWith('{')) {
    try {
      const v = JSON.parse(text) as unknown;
      const arr = Array.isArray(v) ? v : (v as { collections?: unknown }).collections;
      if (Array.isArray(arr)) {
        return arr
          .filter((c): c is Record<string, unknown> => Boolean(c) && typeof c === 'object' && typeof (c as { name?: unknown }).name === 'string')
          .map((c) => ({
            name: c.name as string,
            path: typeof c.path === 'string' ? c.path : typeof c.pwd === 'string' ? c.pwd : undefined,
            pattern: typeof c.pattern === 'string' ? c.pattern : typeof c.mask === 'string' ? c.mask : typeof c.glob_pattern === 'string' ? c.glob_pattern : undefined,
          }));
      }
    } catch {
      // fall through to the text form
    }
  }
  const out: ListedCollection[] = [];
  let current: ListedCollection | undefined;
  for (const line of stdout.split('\n')) {
    const head = /^(\S+) \(qmd:\/\/[^)]*\)\s*$/.exec(line);
    if (head) {
      current = { name: head[1]! };
      out.push(current);
      continue;
    }
    const field = /^\s+(Path|Pattern):\s+(.*?)\s*$/.exec(line);
    if (field && current) {
      if (field[1] === 'Path') current.path = field[2];
      else current.pattern = field[2];
    }
  }
  return out;
}

/** Parse `qmd collection show <name>` (text): its Path and Pattern. */
export function parseCollectionShow(name: string, stdout: string): ListedCollection {
  const out: ListedCollection = { name };
  for (const line of stdout.split('\n')) {
    const field = /^\s+(Path|Pattern):\s+(.*?)\s*$/.exec(line);
    if (field?.[1] === 'Path') out.path = field[2];
    else if (field?.[1] === 'Pattern') out.pattern = field[2];
  }
  return out;
}

/** What to run to bring QMD's collections in line with the wanted ones. */
export interface CollectionPlan {
  remove: string[];
  add: WantedCollection[];
}

function samePath(a: string, b: string): boolean {
  const norm = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return norm(a) === norm(b);
}

/**
 * Compare. A listed collection with the wanted name but another path or pattern is removed
 * and added again; unknown ones are removed; missing ones added.
 */
export function planCollections(wanted: readonly WantedCollection[], listed: readonly ListedCollection[]): CollectionPlan {
  const remove: string[] = [];
  const add: WantedCollection[] = [];
  const byName = new Map(listed.map((c) => [c.name, c]));
  for (const c of listed) if (!wanted.some((w) => w.name === c.name)) remove.push(c.name);
  for (const w of wanted) {
    const have = byName.get(w.name);
    if (!have) {
      add.push(w);
      continue;
    }
    const pathDiffers = have.path !== undefined && !samePath(have.path, w.dir);
    const patternDiffers = have.pattern !== undefined && have.pattern !== w.pattern;
    if (pathDiffers || patternDiffers) {
      remove.push(w.name);
      add.push(w);
    }
  }
  return { remove, add };
}

/** Handle → shown path for every wanted collection (their files listed once per search, up front). */
export async function resultPathResolver(
  wanted: readonly WantedCollection[],
): Promise<(collection: string, handle: string) => { path: string; source: MemorySource } | null> {
  const lookups = new Map(await Promise.all(wanted.map(async (w) => [w.name, handleLookup(await w.files())] as const)));
  return (collection, handle) => {
    const w = wanted.find((c) => c.name === collection);
    const look = lookups.get(collection);
    if (!w || !look) return null;
    return { path: w.display(look(handle) ?? handle), source: w.source };
  };
}
