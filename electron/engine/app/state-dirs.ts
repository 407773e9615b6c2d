/**
 * What the welcome lists: the OpenClaw state dirs on this computer (`~/.openclaw` and
 * OpenClaw's `$OPENCLAW_STATE_DIR`) with their session and note counts, and the recent list
 * of state dirs Cairn opened, kept in Cairn's data dir (never inside a state dir).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FoundStateDir, RecentStateDir } from '../../../shared/types/welcome';
import { cairnDataDir } from '../config/data-dir';
import { expandHome, STARTER_MEMORY } from '../config/state-dir';
import type { EngineContext } from '../core/context';
import { sessionStores } from '../sessions/store';
import { writeFileAtomicSync } from '../util/atomic-write';

/** How many recent dirs are kept. */
const RECENT_MAX = 8;
/** Notes are counted to this many (a count, not an inventory: a huge workspace stays quick). */
const NOTES_CAP = 10_000;

/** Sessions of every agent of `ctx` (distinct ids per agent across its stores). */
export function countSessions(ctx: EngineContext): number {
  let n = 0;
  for (const agent of ctx.agents()) {
    const ids = new Set<string>();
    for (const store of sessionStores(ctx, agent)) {
      try {
        for (const s of store.list()) ids.add(s.sessionId);
      } catch {
        // an unreadable store counts as none here; the Sessions page says why
      }
    }
    n += ids.size;
  }
  return n;
}

/** Markdown notes under the default agent's workspace; `starterOnly` when the only one is the untouched starter MEMORY.md. */
export function countNotes(ctx: EngineContext): { notes: number; starterOnly: boolean } {
  const { workspace } = ctx.paths();
  const files: string[] = [];
  const walk = (dir: string, depth: number) => {
    let items: fs.Dirent[];
    try {
      items = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const it of items) {
      if (files.length >= NOTES_CAP) return;
      const p = path.join(dir, it.name);
      if (it.isDirectory() && depth > 0 && !it.name.startsWith('.')) walk(p, depth - 1);
      else if (it.isFile() && it.name.toLowerCase().endsWith('.md')) files.push(p);
    }
  };
  for (const name of ['MEMORY.md', 'memory.md']) {
    const p = path.join(workspace, name);
    if (fs.existsSync(p)) files.push(p);
  }
  walk(path.join(workspace, 'memory'), 4);
  const unique = [...new Set(files.map((f) => path.resolve(f)))];
  const starterOnly = unique.length === 0 || (unique.length === 1 && safeRead(unique[0] ?? '') === STARTER_MEMORY);
  return { notes: unique.length, starterOnly };
}

function safeRead(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A non-empty directory (an empty one would be initialised as Cairn's by opening it). */
function isNonEmptyDir(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/**
 * A short-lived context for a dir Cairn is not serving, made by the engine's root
 * (assemble.ts) without creating the dir; the caller disposes it.
 */
export type PeekContext = (dir: string) => EngineContext;

/** Counts of a dir Cairn is not serving: a short-lived context that writes nothing into it. */
async function countDir(dir: string, peek: PeekContext): Promise<{ sessions: number; notes: number }> {
  const ctx = peek(dir);
  try {
    return { sessions: countSessions(ctx), notes: countNotes(ctx).notes };
  } finally {
    await ctx.dispose();
  }
}

/** The OpenClaw state dirs on this computer other than `except` (the one open), with counts. */
export async function findOpenClawDirs(env: NodeJS.ProcessEnv, except: string, peek: PeekContext): Promise<FoundStateDir[]> {
  const home = env.HOME || env.USERPROFILE || '';
  const candidates: { path: string; foundBy: FoundStateDir['foundBy'] }[] = [];
  if (env.OPENCLAW_STATE_DIR) candidates.push({ path: path.resolve(expandHome(env.OPENCLAW_STATE_DIR, home)), foundBy: 'openclaw-setting' });
  if (home) candidates.push({ path: path.join(home, '.openclaw'), foundBy: 'home' });
  const found: FoundStateDir[] = [];
  const seen = new Set([realPath(except)]);
  for (const c of candidates) {
    const real = realPath(c.path);
    if (seen.has(real) || !isNonEmptyDir(c.path)) continue;
    seen.add(real);
    try {
      found.push({ ...c, ...(await countDir(c.path, peek)) });
    } catch {
      // not readable as a state dir: not offered
    }
  }
  return found;
}

function realPath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** `<data>/recent-state-dirs.json`. */
function recentFile(env: NodeJS.ProcessEnv): string {
  return path.join(cairnDataDir(env), 'recent-state-dirs.json');
}

/** The recent list, newest first (a missing or damaged file is an empty list). */
export function readRecent(env: NodeJS.ProcessEnv): RecentStateDir[] {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(recentFile(env), 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((r): r is { path: string; openedAt: string } => typeof r?.path === 'string' && typeof r?.openedAt === 'string')
    .map((r) => ({ path: r.path, openedAt: r.openedAt, exists: fs.existsSync(r.path) }));
}

/** Put `dir` first in the recent list (kept to RECENT_MAX). */
export function recordRecent(dir: string, env: NodeJS.ProcessEnv, now: Date): void {
  const abs = path.resolve(dir);
  const rest = readRecent(env).filter((r) => r.path !== abs);
  const list = [{ path: abs, openedAt: now.toISOString() }, ...rest.map(({ path: p, openedAt }) => ({ path: p, openedAt }))].slice(0, RECENT_MAX);
  fs.mkdirSync(path.dirname(recentFile(env)), { recursive: true });
  writeFileAtomicSync(recentFile(env), `${JSON.stringify(list, null, 2)}\n`);
}

/** Where "Explore a demo" builds its state dir. */
export function demoStateDir(env: NodeJS.ProcessEnv): string {
  return path.join(cairnDataDir(env), 'demo');
}
