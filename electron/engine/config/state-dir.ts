/**
 * The state directory: where it is, creating it on first run, and whether Cairn may write.
 *
 * Layout (SPEC §1) is OpenClaw's, so an OpenClaw `~/.openclaw` opens as-is. A directory that
 * Cairn did not create opens read-only for transcripts and memory until the user turns
 * writing on; that choice is kept in Cairn's own `cairn/state.json`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import type { CairnConfig } from './schema';

export const DEFAULT_AGENT_ID = 'main';

/** Resolve the state dir: `--state-dir`, then `CAIRN_STATE_DIR`, then `~/.cairn`. */
export function resolveStateDir(opts: { flag?: string | undefined; env?: NodeJS.ProcessEnv; home?: string } = {}): string {
  const env = opts.env ?? process.env;
  const raw = opts.flag || env.CAIRN_STATE_DIR || path.join(opts.home ?? os.homedir(), '.cairn');
  return path.resolve(expandHome(raw, opts.home));
}

export function expandHome(p: string, home = os.homedir()): string {
  return p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p;
}

interface StateMarker {
  createdBy: 'cairn' | 'external';
  writable: boolean;
  createdAt: string;
}

export interface StateDirInfo {
  stateDir: string;
  /** True when this run created the directory. */
  created: boolean;
  /** False for a directory Cairn did not create (e.g. OpenClaw's) until writing is enabled. */
  writable: boolean;
  createdBy: 'cairn' | 'external';
}

function markerPath(stateDir: string): string {
  return path.join(stateDir, 'cairn', 'state.json');
}

function readMarker(stateDir: string): StateMarker | undefined {
  try {
    const m = JSON.parse(fs.readFileSync(markerPath(stateDir), 'utf8')) as Partial<StateMarker>;
    return {
      createdBy: m.createdBy === 'external' ? 'external' : 'cairn',
      writable: m.writable !== false,
      createdAt: m.createdAt ?? '',
    };
  } catch {
    return undefined;
  }
}

function writeMarker(stateDir: string, m: StateMarker): void {
  fs.mkdirSync(path.dirname(markerPath(stateDir)), { recursive: true });
  writeFileAtomicSync(markerPath(stateDir), `${JSON.stringify(m, null, 2)}\n`);
}

/**
 * Open (and on first run create) the state dir. A new directory gets `workspace/MEMORY.md`,
 * `workspace/memory/`, `agents/main/sessions/` and Cairn's marker. An existing directory
 * without the marker is foreign: read-only, and nothing is written into it.
 */
export function openStateDir(stateDir: string): StateDirInfo {
  const exists = fs.existsSync(stateDir);
  const nonEmpty = exists && fs.readdirSync(stateDir).length > 0;
  const marker = readMarker(stateDir);
  if (marker) return { stateDir, created: false, writable: marker.writable, createdBy: marker.createdBy };
  if (nonEmpty) return { stateDir, created: false, writable: false, createdBy: 'external' };
  fs.mkdirSync(path.join(stateDir, 'workspace', 'memory'), { recursive: true });
  fs.mkdirSync(path.join(stateDir, 'agents', DEFAULT_AGENT_ID, 'sessions'), { recursive: true });
  const memoryFile = path.join(stateDir, 'workspace', 'MEMORY.md');
  if (!fs.existsSync(memoryFile)) {
    writeFileAtomicSync(memoryFile, '# Long-term memory\n\nDurable facts, preferences and decisions go here.\n');
  }
  writeMarker(stateDir, { createdBy: 'cairn', writable: true, createdAt: new Date().toISOString() });
  return { stateDir, created: true, writable: true, createdBy: 'cairn' };
}

/** Turn writing on or off for this state dir (kept in `cairn/state.json`). */
export function setStateDirWritable(stateDir: string, writable: boolean): StateDirInfo {
  const prev = readMarker(stateDir);
  const createdBy = prev?.createdBy ?? 'external';
  writeMarker(stateDir, { createdBy, writable, createdAt: prev?.createdAt ?? new Date().toISOString() });
  return { stateDir, created: false, writable, createdBy };
}

/** Where things live for one agent (SPEC §1). */
export interface AgentPaths {
  agentId: string;
  workspace: string;
  memoryDir: string;
  sessionsDir: string;
  sessionsIndex: string;
  indexFile: string;
  modelsDir: string;
}

export function agentPaths(stateDir: string, config: CairnConfig, agentId = DEFAULT_AGENT_ID): AgentPaths {
  const entry = config.agents.list.find((a) => a.id === agentId);
  const ws = entry?.workspace ?? config.agents.defaults.workspace;
  const workspace = ws ? path.resolve(stateDir, expandHome(ws)) : path.join(stateDir, 'workspace');
  const sessionsDir = path.join(stateDir, 'agents', agentId, 'sessions');
  return {
    agentId,
    workspace,
    memoryDir: path.join(workspace, 'memory'),
    sessionsDir,
    sessionsIndex: path.join(sessionsDir, 'sessions.json'),
    indexFile: path.join(stateDir, 'cairn', 'index', `${agentId}.sqlite`),
    modelsDir: path.join(stateDir, 'cairn', 'models'),
  };
}

/** The agent ids known to this state dir: config list plus directories under `agents/`. */
export function listAgentIds(stateDir: string, config: CairnConfig): string[] {
  const ids = new Set<string>(config.agents.list.map((a) => a.id));
  try {
    for (const d of fs.readdirSync(path.join(stateDir, 'agents'), { withFileTypes: true })) {
      if (d.isDirectory()) ids.add(d.name);
    }
  } catch {
    // no agents/ yet
  }
  if (ids.size === 0) ids.add(DEFAULT_AGENT_ID);
  return [...ids].sort();
}
