/**
 * The state directory: where it is, creating it on first run, and whether Cairn may write.
 *
 * Layout (SPEC §1) is OpenClaw's, so an OpenClaw `~/.openclaw` opens as-is. A directory that
 * Cairn did not create opens read-only for transcripts and memory until the user turns
 * writing on, and Cairn adds nothing to it: its own files for that dir (the writable
 * marker, settings, index) live in the per-user data dir (data-dir.ts). For its own dirs
 * they stay in `<state>/cairn/` (marker `cairn/state.json`) and `<state>/cairn.json`.
 *
 * A state dir that does not exist is created only when the caller asks (`create`: the
 * default dir on a first run, or `--init`): a mistyped `--state-dir` is an error, not a new
 * empty dir.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import { ensureForeignStateHome, foreignStateHome, sharedModelsDir } from './data-dir';
import type { CairnConfig } from './schema';
import { markerPath, readMarker, type StateMarker } from './state-home';
import { resolveAgentWorkspace, type WorkspaceEnv } from './workspace';
import { EngineError } from '../base/errors';

export const DEFAULT_AGENT_ID = 'main';

// Which dir and where its Cairn files go: state-home.ts (the thin client shares those rules).
export { expandHome, resolveStateDir } from './state-home';

export interface StateDirInfo {
  stateDir: string;
  /** True when this run created the directory. */
  created: boolean;
  /** False for a directory Cairn did not create (e.g. OpenClaw's) until writing is enabled. */
  writable: boolean;
  createdBy: 'cairn' | 'external';
  /**
   * Where Cairn keeps its own files for this dir (index, snapshots): `<state>/cairn` for a
   * dir it created, `<data>/state-dirs/<key>` for a foreign one.
   */
  cairnDir: string;
  /** The dir whose `cairn.json` Cairn writes settings to: the state dir itself, or `cairnDir` for a foreign one. */
  settingsDir: string;
  /** Models Cairn downloads or converts: `<state>/cairn/models`, or the per-user `<data>/models` for a foreign dir. */
  modelsDir: string;
}

/** Thrown when a state dir that does not exist is opened without `create`. */
export class StateDirMissingError extends EngineError {
  constructor(readonly stateDir: string) {
    super('not_found', `the state dir ${stateDir} does not exist; check the path, or pass --init to create a new state dir there`);
    this.name = 'StateDirMissingError';
  }
}

function ownInfo(stateDir: string, created: boolean, writable: boolean): StateDirInfo {
  const cairnDir = path.join(stateDir, 'cairn');
  return { stateDir, created, writable, createdBy: 'cairn', cairnDir, settingsDir: stateDir, modelsDir: path.join(cairnDir, 'models') };
}

function foreignInfo(stateDir: string, writable: boolean, env: NodeJS.ProcessEnv): StateDirInfo {
  const cairnDir = foreignStateHome(stateDir, env);
  return { stateDir, created: false, writable, createdBy: 'external', cairnDir, settingsDir: cairnDir, modelsDir: sharedModelsDir(env) };
}

function writeMarker(file: string, m: StateMarker): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomicSync(file, `${JSON.stringify(m, null, 2)}\n`);
}

/** The writable choice of a foreign dir: in its home in the data dir, else a marker an older Cairn left in the dir. */
function foreignMarker(stateDir: string, env: NodeJS.ProcessEnv): StateMarker | undefined {
  return readMarker(stateDir, path.join(foreignStateHome(stateDir, env), 'state.json')) ?? readMarker(stateDir);
}

/** The MEMORY.md a new state dir starts with (the welcome counts a dir holding only it as empty). */
export const STARTER_MEMORY = '# Long-term memory\n\nDurable facts, preferences and decisions go here.\n';

/**
 * Open (and, with `create`, on first run create) the state dir. A new or empty directory
 * gets `workspace/MEMORY.md`, `workspace/memory/`, `agents/main/sessions/` and Cairn's
 * marker. An existing directory without Cairn's marker is foreign: read-only, and nothing is
 * written into it. A missing directory without `create` throws StateDirMissingError.
 */
export function openStateDir(stateDir: string, opts: { create?: boolean; env?: NodeJS.ProcessEnv } = {}): StateDirInfo {
  const env = opts.env ?? process.env;
  const exists = fs.existsSync(stateDir);
  if (!exists && opts.create === false) throw new StateDirMissingError(stateDir);
  const nonEmpty = exists && fs.readdirSync(stateDir).length > 0;
  const marker = readMarker(stateDir);
  if (marker?.createdBy === 'cairn') return ownInfo(stateDir, false, marker.writable);
  if (nonEmpty || marker) return foreignInfo(stateDir, foreignMarker(stateDir, env)?.writable ?? false, env);
  fs.mkdirSync(path.join(stateDir, 'workspace', 'memory'), { recursive: true });
  fs.mkdirSync(path.join(stateDir, 'agents', DEFAULT_AGENT_ID, 'sessions'), { recursive: true });
  const memoryFile = path.join(stateDir, 'workspace', 'MEMORY.md');
  if (!fs.existsSync(memoryFile)) {
    writeFileAtomicSync(memoryFile, STARTER_MEMORY);
  }
  writeMarker(markerPath(stateDir), { createdBy: 'cairn', writable: true, createdAt: new Date().toISOString() });
  return ownInfo(stateDir, true, true);
}

/**
 * Turn writing on or off for this state dir: kept in `cairn/state.json` of a dir Cairn
 * created, in the data dir (`<data>/state-dirs/<key>/state.json`) for a foreign one.
 */
export function setStateDirWritable(stateDir: string, writable: boolean, env: NodeJS.ProcessEnv = process.env): StateDirInfo {
  const own = readMarker(stateDir);
  if (own?.createdBy === 'cairn') {
    writeMarker(markerPath(stateDir), { createdBy: 'cairn', writable, createdAt: own.createdAt });
    return ownInfo(stateDir, false, writable);
  }
  const prev = foreignMarker(stateDir, env);
  const home = ensureForeignStateHome(stateDir, env);
  writeMarker(path.join(home, 'state.json'), { createdBy: 'external', writable, createdAt: prev?.createdAt ?? new Date().toISOString() });
  return foreignInfo(stateDir, writable, env);
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
  /** Set when the configured workspace is missing: relocated into the state dir, or not found (workspace.ts). */
  workspaceWarning?: string;
}

/**
 * The workspace follows OpenClaw's rules (workspace.ts); `where` gives the env and current
 * directory it resolves against. `own` says where Cairn's own files go (StateDirInfo.cairnDir/modelsDir); without it,
 * `<state>/cairn` as for a dir Cairn created.
 */
export function agentPaths(
  stateDir: string,
  config: CairnConfig,
  agentId = DEFAULT_AGENT_ID,
  own?: { cairnDir: string; modelsDir: string },
  where: WorkspaceEnv = {},
): AgentPaths {
  const { workspace, warning } = resolveAgentWorkspace(stateDir, config, agentId, where);
  const sessionsDir = path.join(stateDir, 'agents', agentId, 'sessions');
  return {
    agentId,
    ...(warning ? { workspaceWarning: warning } : {}),
    workspace,
    memoryDir: path.join(workspace, 'memory'),
    sessionsDir,
    sessionsIndex: path.join(sessionsDir, 'sessions.json'),
    indexFile: path.join(own?.cairnDir ?? path.join(stateDir, 'cairn'), 'index', `${agentId}.sqlite`),
    modelsDir: own?.modelsDir ?? path.join(stateDir, 'cairn', 'models'),
  };
}

/** The agent ids known to this state dir: config list plus directories under `agents/`. */
export function listAgentIds(stateDir: string, config: CairnConfig): string[] {
  const ids = new Set<string>(Object.keys(config.agents.entries));
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
