/**
 * Which state dir, and where Cairn keeps its own files for it: the rules `cairn` applies
 * before anything else loads, shared by the engine (state-dir.ts) and `cairn search`'s thin
 * client (bin/thin-client.mjs, through the bundle of electron/cli/thin-rules.ts), so both
 * find the same folder. Light on purpose: node built-ins and data-dir.ts only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { foreignStateHome } from './data-dir';

/** `~` and `~/…` expanded against `home`. */
export function expandHome(p: string, home = os.homedir()): string {
  return p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p;
}

/** Resolve the state dir: `--state-dir`, then `CAIRN_STATE_DIR`, then `~/.cairn`. */
export function resolveStateDir(opts: { flag?: string | undefined; env?: NodeJS.ProcessEnv; home?: string } = {}): string {
  const env = opts.env ?? process.env;
  const raw = opts.flag || env.CAIRN_STATE_DIR || path.join(opts.home ?? os.homedir(), '.cairn');
  return path.resolve(expandHome(raw, opts.home));
}

/** Cairn's marker in a state dir (`cairn/state.json`), or the writable choice kept for a foreign one. */
export interface StateMarker {
  createdBy: 'cairn' | 'external';
  writable: boolean;
  createdAt: string;
}

/** `<state>/cairn/state.json`: present in a dir Cairn created. */
export function markerPath(stateDir: string): string {
  return path.join(stateDir, 'cairn', 'state.json');
}

/** The marker in `file` (default: the state dir's own), or undefined when absent or unreadable. */
export function readMarker(stateDir: string, file = markerPath(stateDir)): StateMarker | undefined {
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<StateMarker>;
    return {
      createdBy: m.createdBy === 'external' ? 'external' : 'cairn',
      writable: m.writable !== false,
      createdAt: m.createdAt ?? '',
    };
  } catch {
    return undefined;
  }
}

/** Cairn's settings file: in the state dir it created, or in a foreign dir's home. */
export const CONFIG_FILE = 'cairn.json';
/** OpenClaw's config, read (never written by the loader) beside Cairn's. */
export const OPENCLAW_CONFIG_FILE = 'openclaw.json';

/** The settings files the config is merged from, in merge order (later wins); load.ts reads exactly these. */
export function settingsFiles(stateDir: string, settingsDir: string = stateDir): string[] {
  const files = [path.join(stateDir, OPENCLAW_CONFIG_FILE), path.join(stateDir, CONFIG_FILE)];
  if (path.resolve(settingsDir) !== path.resolve(stateDir)) files.push(path.join(settingsDir, CONFIG_FILE));
  return files;
}

/** Where Cairn keeps its own files (`cairnDir`) and its settings (`settingsDir`) for an existing state dir. */
export interface StateHome {
  createdBy: 'cairn' | 'external';
  cairnDir: string;
  settingsDir: string;
}

/**
 * {@link StateHome} of an existing `stateDir`: `<state>/cairn` and the dir itself for a dir
 * Cairn created (its marker says so), else the dir's home in the per-user data dir for both.
 */
export function stateHome(stateDir: string, env: NodeJS.ProcessEnv = process.env): StateHome {
  if (readMarker(stateDir)?.createdBy === 'cairn') return { createdBy: 'cairn', cairnDir: path.join(stateDir, 'cairn'), settingsDir: stateDir };
  const home = foreignStateHome(stateDir, env);
  return { createdBy: 'external', cairnDir: home, settingsDir: home };
}
