/**
 * OpenClaw's own install record of Cairn's plugin. A non-bundled plugin that OpenClaw loads
 * without one makes every OpenClaw start log "cairn: OpenClaw can't verify where this plugin
 * came from" (its loader's `warnAboutUntrackedLoadedPlugins`). The record lives in OpenClaw's
 * machine state — `state/openclaw.sqlite`, table `config_machine_state`, key
 * `plugins.installedIndex`, `installRecords.cairn = {source: "path", sourcePath, installPath, …}`
 * beside a registry of every plugin — which only OpenClaw writes: connect runs
 * `openclaw plugins install --link <plugin folder>` and undo `openclaw plugins uninstall cairn`.
 * Here: finding `openclaw`, reading whether the record is there (read-only), describing the
 * change for the diff the person consents to, and running the two commands — after which
 * openclaw.json gets back exactly the text shown (OpenClaw's writer strips comments, adds a
 * `meta` block, replaces a symlink and narrows the mode), through a link, in its mode.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EngineError } from '../core/errors';
import { writeFileAtomicSync } from '../util/atomic-write';
import { PLUGIN_ID } from './plan';

/** The `openclaw` executable on `env.PATH`, or undefined. */
export function findOpenClaw(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, process.platform === 'win32' ? 'openclaw.cmd' : 'openclaw');
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** OpenClaw's machine-state database of `stateDir`. */
const stateDb = (stateDir: string): string => path.join(stateDir, 'state', 'openclaw.sqlite');

/** The install path OpenClaw recorded for Cairn's plugin in `stateDir`, or undefined (no record, no database). */
export function recordedInstallPath(stateDir: string): string | undefined {
  const file = stateDb(stateDir);
  if (!fs.existsSync(file)) return undefined;
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare("SELECT value_json FROM config_machine_state WHERE state_key = 'plugins.installedIndex'").get() as { value_json: string } | undefined;
      const rec = row ? (JSON.parse(row.value_json) as { index?: { installRecords?: Record<string, { installPath?: string; sourcePath?: string }> } }).index?.installRecords?.[PLUGIN_ID] : undefined;
      return rec ? (rec.installPath ?? rec.sourcePath ?? '') : undefined;
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

/**
 * The record's change as a diff section after openclaw.json's (what the person consents to,
 * so its hash covers it): OpenClaw's index entry, and the files OpenClaw's command keeps.
 */
export function installRecordDiff(stateDir: string, pluginDir: string, add: boolean): string {
  const file = `${stateDb(stateDir)} (plugins.installedIndex, written by openclaw plugins ${add ? 'install --link' : 'uninstall'})`;
  const sign = add ? '+' : '-';
  const record = [`"${PLUGIN_ID}": {`, '  "source": "path",', `  "sourcePath": ${JSON.stringify(pluginDir)},`, `  "installPath": ${JSON.stringify(pluginDir)}`, '}'];
  return [`--- ${file}`, `+++ ${file}`, `@@ installRecords @@`, ...record.map((l) => `${sign}${l}`), ''].join('\n');
}

/** Run `openclaw <args>` on `stateDir`; an EngineError with the end of its output when it fails. */
export function runOpenClaw(command: string, args: string[], stateDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...env, OPENCLAW_STATE_DIR: stateDir, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (c: Buffer) => {
      out = (out + c.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => reject(new EngineError('unavailable', `could not run ${command}: ${err.message}`)));
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new EngineError('unavailable', `"openclaw ${args.join(' ')}" failed (exit ${code}): ${out.trim().split('\n').slice(-3).join(' ')}`));
    });
  });
}

/**
 * Where openclaw.json's bytes live: the file, or what a symlink to it points at (dotfile
 * managers keep it as a link). Connect and undo write there — atomically, in the target's own
 * dir — so the link stays a link and its target gets the change.
 */
export function realFile(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/** Write openclaw.json through a link to its target, keeping the target's mode (or forcing `mode`). */
export function writeConfig(file: string, text: string, mode?: number): void {
  writeFileAtomicSync(realFile(file), text, mode === undefined ? {} : { mode });
}

/**
 * Run `openclaw <args>` on `stateDir`, then give openclaw.json (`file`) the text `text` the
 * person agreed to: the link put back if OpenClaw's writer replaced it by a plain file, the
 * target's mode as it was before.
 */
export async function withOpenClaw(command: string, args: string[], stateDir: string, file: string, text: string, env: NodeJS.ProcessEnv): Promise<void> {
  const link = fs.lstatSync(file).isSymbolicLink() ? fs.readlinkSync(file) : undefined;
  const mode = fs.statSync(file).mode & 0o7777;
  try {
    await runOpenClaw(command, args, stateDir, env);
  } finally {
    if (link !== undefined && !fs.lstatSync(file).isSymbolicLink()) {
      fs.rmSync(file);
      fs.symlinkSync(link, file);
    }
    writeConfig(file, text, mode);
  }
}
