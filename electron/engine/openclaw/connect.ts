/**
 * Connecting an OpenClaw state dir to Cairn (and undoing it): read its openclaw.json, work
 * out the settings it lacks (plan.ts), show them as a unified diff, and — unless it is a dry
 * run — save a backup and write them: through OpenClaw's own `openclaw config patch` when
 * that CLI is on PATH and the file is plain JSON (OpenClaw's writer drops JSON5 comments),
 * else with a comment-keeping text edit (json5-edit.ts) written atomically. A file changed
 * by someone else between reading and writing is left alone (a `conflict` error).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import JSON5 from 'json5';
import type { OpenClawConnectResult, OpenClawConnection } from '../../../shared/contract/openclaw';
import { OPENCLAW_CONFIG_FILE } from '../config/load';
import { EngineError } from '../core/errors';
import { writeFileAtomicSync } from '../util/atomic-write';
import { dropBackup, readBackup, recordConnect, saveBackup, sha256 } from './backup';
import { setJson5Path } from './json5-edit';
import { connectEdits, connectionProblems, currentLaunch, serverEntry, type CairnLaunch, type ConfigEdit } from './plan';

/** What connecting needs from outside: the environment, how Cairn starts, OpenClaw's CLI. */
export interface ConnectDeps {
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  /** How OpenClaw should start Cairn; default: this process's Node and bin/cairn.mjs. */
  launch?: CairnLaunch;
  /** The `openclaw` executable to write with; default: found on PATH; null: never use it. */
  openclawCli?: string | null;
}

interface ReadConfig {
  file: string;
  text: string;
  config: unknown;
}

/** openclaw.json of `stateDir`, parsed; an EngineError naming the file when it cannot be. */
function readConfig(stateDir: string): ReadConfig {
  const file = path.join(path.resolve(stateDir), OPENCLAW_CONFIG_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new EngineError(code === 'ENOENT' ? 'not_found' : 'unavailable', code === 'ENOENT' ? `${file} does not exist: not an OpenClaw state dir` : `cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return { file, text, config: JSON5.parse(text) };
  } catch (err) {
    throw new EngineError('bad_request', `${file} is not valid JSON5: ${(err as Error).message}`);
  }
}

/** Whether the agent of `stateDir` recalls through Cairn, and whether connect can work there. */
export function openClawConnection(stateDir: string): OpenClawConnection {
  const dir = path.resolve(stateDir);
  let read: ReadConfig;
  try {
    read = readConfig(dir);
  } catch (err) {
    return { stateDir: dir, connected: false, detail: (err as Error).message, canConnect: false, reason: (err as Error).message };
  }
  const problems = connectionProblems(read.config);
  const writable = isWritable(read.file);
  return {
    stateDir: dir,
    connected: problems.length === 0,
    detail: problems.length === 0 ? `OpenClaw's agent recalls through Cairn (mcp.servers.cairn in ${read.file})` : `Not connected: ${problems.join('; ')}.`,
    canConnect: writable,
    ...(writable ? {} : { reason: `${read.file} is not writable` }),
  };
}

function isWritable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.W_OK);
    fs.accessSync(path.dirname(file), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** `before` → `after` of openclaw.json as a unified diff ('' when equal). */
function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  return createTwoFilesPatch(file, file, before, after, '', '', { context: 3, headerOptions: FILE_HEADERS_ONLY });
}

/** An executable named `openclaw` on PATH, or null. */
function findOpenClawCli(env: NodeJS.ProcessEnv): string | null {
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
  return null;
}

/** The edits as one nested object, the shape `openclaw config patch --file` takes. */
function patchObject(edits: ConfigEdit[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const e of edits) {
    let o = root;
    for (const k of e.path.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
    o[e.path[e.path.length - 1] as string] = e.value;
  }
  return root;
}

/** Apply `edits` with OpenClaw's own CLI, on exactly this state dir's config file. */
async function writeWithOpenClaw(cli: string, read: ReadConfig, stateDir: string, edits: ConfigEdit[], env: NodeJS.ProcessEnv): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-openclaw-patch-'));
  try {
    const patch = path.join(tmp, 'cairn.patch.json5');
    fs.writeFileSync(patch, `${JSON.stringify(patchObject(edits), null, 2)}\n`);
    await new Promise<void>((resolve, reject) => {
      execFile(cli, ['config', 'patch', '--file', patch], { env: { ...env, OPENCLAW_STATE_DIR: stateDir, OPENCLAW_CONFIG_PATH: read.file }, timeout: 120_000 }, (err, _out, stderr) =>
        err ? reject(new EngineError('internal', `${cli} config patch failed: ${String(stderr).trim().split('\n').slice(-3).join(' ') || err.message}`)) : resolve(),
      );
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Throw `conflict` when openclaw.json is no longer the text the change was computed from. */
function assertUnchanged(read: ReadConfig): void {
  if (fs.readFileSync(read.file, 'utf8') !== read.text) {
    throw new EngineError('conflict', `${read.file} changed while Cairn was connecting it (OpenClaw or an editor wrote it): nothing was written; run connect again`);
  }
}

/** Put the backup back (or, as a dry run, show what that would change). */
function undo(stateDir: string, deps: ConnectDeps, dryRun: boolean): OpenClawConnectResult {
  const read = readConfig(stateDir);
  const rec = readBackup(stateDir, deps.env);
  if (!rec) throw new EngineError('not_found', `no backup of ${read.file} from "cairn connect openclaw": nothing to undo`);
  const backup = fs.readFileSync(rec.copy, 'utf8');
  const diff = unifiedDiff(read.file, read.text, backup);
  if (sha256(read.text) !== rec.afterSha256) {
    throw new EngineError('conflict', `${read.file} changed after Cairn connected it, so restoring the backup would lose those edits; the backup is ${rec.copy}`);
  }
  if (dryRun) return { changed: false, diff, message: `Would restore ${read.file} from ${rec.copy}.` };
  assertUnchanged(read);
  writeFileAtomicSync(read.file, backup);
  dropBackup(stateDir, deps.env);
  return { changed: true, diff, message: `Restored ${read.file} as it was before Cairn connected it.` };
}

/**
 * Connect `stateDir`'s OpenClaw to Cairn (or undo that). `expectSha256`: the sha256 of the
 * openclaw.json the person consented to change (the CLI's y/N after the diff); a file that
 * differs by now is refused.
 */
export async function connectOpenClaw(
  stateDir: string,
  opts: { dryRun?: boolean; undo?: boolean; expectSha256?: string },
  deps: ConnectDeps,
): Promise<OpenClawConnectResult> {
  const dir = path.resolve(stateDir);
  if (opts.undo) return undo(dir, deps, opts.dryRun ?? false);
  const read = readConfig(dir);
  const edits = connectEdits(read.config, serverEntry(dir, deps.launch ?? currentLaunch(), deps.env));
  if (edits.length === 0) return { changed: false, diff: '', message: `${read.file} is already connected to Cairn.` };
  const after = edits.reduce((t, e) => setJson5Path(t, e.path, e.value), read.text);
  if (connectEdits(JSON5.parse(after), serverEntry(dir, deps.launch ?? currentLaunch(), deps.env)).length) {
    throw new EngineError('internal', `the edit of ${read.file} did not come out as planned: nothing was written`);
  }
  const diff = unifiedDiff(read.file, read.text, after);
  if (opts.dryRun) return { changed: false, diff, message: `Would change ${edits.map((e) => e.path.join('.')).join(', ')} in ${read.file}.` };
  if (opts.expectSha256 && opts.expectSha256 !== sha256(read.text)) {
    throw new EngineError('conflict', `${read.file} changed since the diff was shown: nothing was written; run connect again`);
  }
  if (!isWritable(read.file)) throw new EngineError('read_only', `${read.file} is not writable: nothing was changed`);
  const backupPath = saveBackup(dir, deps.env, read.text);
  assertUnchanged(read);
  const cli = deps.openclawCli === undefined ? findOpenClawCli(deps.env) : deps.openclawCli;
  let plainJson = true;
  try {
    JSON.parse(read.text);
  } catch {
    plainJson = false;
  }
  if (cli && plainJson) await writeWithOpenClaw(cli, read, dir, edits, deps.env);
  else writeFileAtomicSync(read.file, after);
  const written = fs.readFileSync(read.file, 'utf8');
  recordConnect(dir, deps.env, read.file, written, deps.now?.() ?? new Date());
  const how = cli && plainJson ? `with ${cli} config patch` : 'keeping its comments and layout';
  return { changed: true, diff: unifiedDiff(read.file, read.text, written), backupPath, message: `Connected ${read.file} to Cairn (${how}); the previous file is saved at ${backupPath}. Restart a running OpenClaw gateway if it does not pick the change up.` };
}
