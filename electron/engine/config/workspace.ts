/**
 * Where an agent's workspace is, resolved the way OpenClaw resolves it, plus the one place
 * Cairn departs from it: a state dir copied or moved from another machine or home.
 *
 * OpenClaw's rules (agents/agent-scope-config in openclaw 2026.9): an agent's own
 * `workspace` wins; else `agents.defaults.workspace` as-is for the data-owner agent (the
 * `default: true` entry, else the first in `agents.entries`, else `main`) and `<defaults.workspace>/<id>`
 * for every other agent; with neither, `<state>/workspace` for the owner and
 * `<state>/workspace-<id>` for the others. A `~` path is expanded against OpenClaw's home
 * (`OPENCLAW_HOME`, else the user's home); any other relative path is resolved against the
 * current directory (`path.resolve`), as OpenClaw does.
 *
 * A configured workspace that does not exist is usually one that pointed into the state
 * dir's old location (`/home/<old user>/.openclaw/workspace`) or was relative to it. When the
 * same place exists inside this state dir, Cairn uses it and says so; otherwise it says the
 * workspace is missing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CairnConfig } from './schema';
import { SUGGESTION_TEXT } from './suggestions';

/** The workspace chosen for one agent, and a warning when it is not the configured path. */
export interface WorkspaceChoice {
  workspace: string;
  /** Set when the configured workspace is missing (relocated or not found). */
  warning?: string;
}

/** Where the process looks things up: env (for OPENCLAW_HOME) and the current directory. */
export interface WorkspaceEnv {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

/** OpenClaw's home for `~`: `OPENCLAW_HOME` (itself `~`-expanded) when set, else the OS home. */
export function openClawHome(env: NodeJS.ProcessEnv = process.env): string {
  const osHome = env.HOME?.trim() || os.homedir();
  const own = env.OPENCLAW_HOME?.trim();
  if (!own) return osHome;
  return path.resolve(own === '~' ? osHome : own.startsWith('~/') ? path.join(osHome, own.slice(2)) : own);
}

/** OpenClaw's resolveUserPath: `~` against its home, anything else through path.resolve(base). */
function userPath(p: string, home: string, base: string): string {
  const t = p.trim();
  const expanded = t === '~' ? home : t.startsWith('~/') ? path.join(home, t.slice(2)) : t;
  return path.resolve(base, expanded);
}

/** The agent whose data `agents.defaults.workspace` holds as-is (OpenClaw's default agent). */
export function dataOwnerAgentId(config: CairnConfig): string {
  const entries = Object.entries(config.agents.entries);
  return entries.find(([, a]) => a.default === true)?.[0] ?? entries[0]?.[0] ?? 'main';
}

interface Configured {
  /** The configured string, and how an agent id is appended to it (defaults for a non-owner). */
  value: string;
  suffix?: string;
  keyPath: string;
}

function configuredWorkspace(config: CairnConfig, agentId: string): Configured | undefined {
  const own = Object.hasOwn(config.agents.entries, agentId) ? config.agents.entries[agentId]?.workspace?.trim() : undefined;
  if (own) return { value: own, keyPath: `agents.entries.${agentId}.workspace` };
  const fallback = config.agents.defaults.workspace?.trim();
  if (!fallback) return undefined;
  const suffix = agentId === dataOwnerAgentId(config) ? undefined : agentId;
  return { value: fallback, keyPath: 'agents.defaults.workspace', ...(suffix ? { suffix } : {}) };
}

/**
 * The same place inside this state dir: a relative path taken against the state dir, or an
 * absolute one under some `.openclaw` (or `.openclaw-<profile>`) dir taken as relative to it.
 */
function insideStateDir(resolved: string, c: Configured, stateDir: string, home: string): string | undefined {
  const expanded = c.value === '~' || c.value.startsWith('~/') ? userPath(c.value, home, stateDir) : c.value;
  if (!path.isAbsolute(expanded)) return path.join(userPath(expanded, home, stateDir), c.suffix ?? '');
  const parts = resolved.split(path.sep);
  const at = parts.findLastIndex((s) => s === '.openclaw' || s.startsWith('.openclaw-'));
  if (at < 0 || at === parts.length - 1) return undefined;
  return path.join(stateDir, ...parts.slice(at + 1));
}

/**
 * Resolve one agent's workspace as OpenClaw does; a configured workspace that is missing
 * falls back to the same place inside `stateDir` when that exists (with a warning naming
 * both), else is kept with a warning that it is missing.
 */
export function resolveAgentWorkspace(stateDir: string, config: CairnConfig, agentId: string, opts: WorkspaceEnv = {}): WorkspaceChoice {
  const home = openClawHome(opts.env);
  const cwd = opts.cwd ?? process.cwd();
  const c = configuredWorkspace(config, agentId);
  if (!c) return { workspace: path.join(stateDir, agentId === dataOwnerAgentId(config) ? 'workspace' : `workspace-${agentId}`) };
  const resolved = path.join(userPath(c.value, home, cwd), c.suffix ?? '');
  if (fs.existsSync(resolved)) return { workspace: resolved };
  const alt = insideStateDir(resolved, c, stateDir, home);
  if (alt && alt !== resolved && fs.existsSync(alt)) {
    return {
      workspace: alt,
      warning: `the workspace ${resolved} (${c.keyPath} = ${JSON.stringify(c.value)}) does not exist; using ${alt}, the same place inside this state dir (it was probably copied or moved from another machine or home)`,
    };
  }
  return {
    workspace: resolved,
    warning: `the workspace ${resolved} (${c.keyPath} = ${JSON.stringify(c.value)}) does not exist: agent ${agentId} has no memory notes until it exists or ${c.keyPath} names the right folder`,
  };
}

/** Doctor's view of the workspaces: ok, or a warning per agent whose configured workspace is missing. */
export function workspaceCheck(agents: string[], warningOf: (agentId: string) => string | undefined): { status: 'ok' | 'warn'; detail: string; hint?: string } {
  const problems = agents.flatMap((id) => {
    const w = warningOf(id);
    return w ? [`${id}: ${w}`] : [];
  });
  if (problems.length === 0) return { status: 'ok', detail: `found for ${agents.join(', ')}` };
  return { status: 'warn', detail: problems.join('\n'), hint: SUGGESTION_TEXT.workspace() };
}
