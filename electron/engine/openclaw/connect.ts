/**
 * Connecting an OpenClaw state dir to Cairn (and undoing it): read its openclaw.json, work
 * out the settings it lacks (plan.ts: Cairn's plugin and its entry, and for a dir connected
 * the old way, taking the MCP server / deny list / tool-search switch away again), show them
 * as a unified diff, and — unless it is a dry run — save a backup and write exactly that
 * text: a comment-keeping edit (json5-edit.ts) written atomically. OpenClaw's own
 * `openclaw config patch` is not used: it adds a `meta` block the diff would not show and
 * leaves files of its own in the dir (openclaw.json.bak, a journal key, its state database)
 * that `--undo` could not take back. A file changed by someone else between reading and
 * writing is left alone (a `conflict` error).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import JSON5 from 'json5';
import type { OpenClawConnectResult, OpenClawConnection } from '../../../shared/contract/openclaw';
import { OPENCLAW_CONFIG_FILE } from '../config/load';
import { EngineError } from '../core/errors';
import { dropBackup, readBackup, recordConnect, saveBackup, sha256 } from './backup';
import { deleteJson5Path, setJson5Path } from './json5-edit';
import { currentLaunch } from './launch';
import { connectEdits, connectionProblems, isOldStyle, PLUGIN_ID, pluginConfig, pluginDirOf, type CairnLaunch, type ConfigEdit } from './plan';
import { applyUndo, undoEdits, withoutPlugin } from './undo';
import { findOpenClaw, installRecordDiff, realFile, recordedInstallPath, withOpenClaw, writeConfig } from './install-record';

/** What connecting needs from outside: the environment and how Cairn starts. */
export interface ConnectDeps {
  env: NodeJS.ProcessEnv;
  now?: () => Date;
  /** How the plugin should start Cairn; default: this process's Node, bin/cairn.mjs and openclaw-plugin/. */
  launch?: CairnLaunch;
  /** The `openclaw` command that records the install (install-record.ts); default: `openclaw` on PATH; null: none. */
  openclaw?: string | null;
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
    detail:
      problems.length === 0
        ? `Cairn's plugin is on in ${read.file}: recall before every prompt, Cairn's corpus behind memory_search/memory_get (corpus=all); nothing of OpenClaw's is switched off${recordedInstallPath(dir) === undefined ? `. OpenClaw has no install record of the plugin, so each start warns that it "can't verify where this plugin came from": run connect again where the openclaw command is on PATH` : ''}`
        : `Not connected: ${problems.join('; ')}.`,
    canConnect: writable,
    ...(writable ? {} : { reason: `${read.file} is not writable` }),
  };
}

/** Copy the plugin folder to where OpenClaw will load it from (a whole new copy, swapped in by rename). */
function copyPlugin(from: string, to: string): void {
  const tmp = `${to}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, tmp, { recursive: true });
  fs.rmSync(to, { recursive: true, force: true });
  fs.renameSync(tmp, to);
}

function isWritable(link: string): boolean {
  const file = realFile(link);
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

/** `text` with `edits` applied (set or remove), keeping every other byte. */
function applyEdits(text: string, edits: readonly ConfigEdit[]): string {
  return edits.reduce((t, e) => (e.remove ? deleteJson5Path(t, e.path) : setJson5Path(t, e.path, e.value)), text);
}

/**
 * The text to edit from. For a dir still exactly as the old connect left it, that is the file
 * from before that connect (its backup): the new set-up then replaces the old one as if it had
 * never been written, and `--undo` goes back to the user's own file. Otherwise the file itself.
 */
function baseText(read: ReadConfig, stateDir: string, env: NodeJS.ProcessEnv): string {
  if (!isOldStyle(read.config)) return read.text;
  const rec = readBackup(stateDir, env);
  if (!rec || rec.afterSha256 !== sha256(read.text)) return read.text;
  try {
    const original = fs.readFileSync(rec.copy, 'utf8');
    JSON5.parse(original);
    return original;
  } catch {
    return read.text;
  }
}

/** Throw `conflict` when openclaw.json is no longer the text the change was computed from. */
function assertUnchanged(read: ReadConfig): void {
  if (fs.readFileSync(read.file, 'utf8') !== read.text) {
    throw new EngineError('conflict', `${read.file} changed while Cairn was connecting it (OpenClaw or an editor wrote it): nothing was written; run connect again`);
  }
}

/**
 * The text undo writes and what to tell the person: the saved copy byte for byte while the
 * file is still exactly what Cairn's first connect wrote; otherwise the file with Cairn's own
 * settings put back as the copy had them (undo.ts), keeping every other edit made since.
 */
function undoText(read: ReadConfig, rec: NonNullable<ReturnType<typeof readBackup>>, deps: ConnectDeps): { after: string; message: string; exact: boolean } {
  const backup = fs.readFileSync(rec.copy, 'utf8');
  const since = rec.firstAt ?? rec.at;
  if (sha256(read.text) === (rec.firstAfterSha256 ?? rec.afterSha256)) {
    return { after: backup, exact: true, message: `${read.file} is as Cairn's first connect (${since}) left it: restored byte for byte as it was before, from ${rec.copy}.` };
  }
  let original: unknown;
  try {
    original = JSON5.parse(backup);
  } catch (err) {
    throw new EngineError('conflict', `${read.file} changed since Cairn connected it and the saved copy ${rec.copy} is not valid JSON5 (${(err as Error).message}), so Cairn's settings cannot be taken out key by key: nothing was written`);
  }
  let dirs: string[] = [];
  try {
    dirs = [pluginDirOf(deps.launch ?? currentLaunch())];
  } catch {
    // No plugin folder beside this Cairn: folders that still hold the plugin are recognised anyway.
  }
  const edits = undoEdits(read.config, original, dirs);
  const after = applyUndo(read.text, edits, original, (t) => JSON5.parse(t));
  if (after === read.text) return { after, exact: false, message: `${read.file} holds none of Cairn's settings any more: nothing to undo.` };
  const what = edits.map((e) => `${e.path.join('.')} ${e.remove ? 'removed' : 'put back'}`).join(', ');
  const equal = JSON.stringify(JSON5.parse(after)) === JSON.stringify(original);
  return {
    after,
    exact: false,
    message: `${read.file} changed since Cairn first connected it (${since}), so it was not replaced by the copy from before (kept at ${rec.copy}): Cairn's settings were taken out (${what}) and ${equal ? 'every setting is now as it was before Cairn connected; only the layout of your edited file differs' : 'every other edit made since was kept'}.`,
  };
}

/** Take Cairn's settings out again (or, as a dry run, show what that would change). */
async function undo(stateDir: string, deps: ConnectDeps, opts: ConnectOptions): Promise<OpenClawConnectResult> {
  const read = readConfig(stateDir);
  const rec = readBackup(stateDir, deps.env);
  if (!rec) throw new EngineError('not_found', `no backup of ${read.file} from "cairn connect openclaw": nothing to undo`);
  const { after, message, exact } = undoText(read, rec, deps);
  // OpenClaw's install record goes through OpenClaw's own uninstall; without `openclaw` it stays (said so).
  const recorded = recordedInstallPath(stateDir);
  const openclaw = recorded !== undefined ? openClawOf(deps) : undefined;
  const diff = unifiedDiff(read.file, read.text, after) + (openclaw && recorded !== undefined ? installRecordDiff(stateDir, recorded, false) : '');
  const left = recorded !== undefined && !openclaw ? ` OpenClaw's install record of the plugin stays (no openclaw command on PATH): "openclaw plugins uninstall ${PLUGIN_ID}" removes it.` : '';
  if (opts.dryRun) return { changed: false, diff, diffSha256: sha256(diff), message: `Would undo: ${message}${left}` };
  const stale = staleConsent(read.file, diff, opts);
  if (stale) return stale;
  assertUnchanged(read);
  if (openclaw) await withOpenClaw(openclaw, ['plugins', 'uninstall', PLUGIN_ID, '--force'], stateDir, read.file, after, deps.env);
  else if (after !== read.text) writeConfig(read.file, after);
  dropBackup(stateDir, deps.env, !exact);
  return { changed: Boolean(diff), diff, diffSha256: sha256(diff), message: `${exact ? `Restored ${read.file} as it was before Cairn connected it.` : message}${openclaw ? ` OpenClaw's install record was removed by "openclaw plugins uninstall ${PLUGIN_ID}".` : left}` };
}

/** What to do: connect or undo, for real or as a dry run, and the change the person consented to. */
export interface ConnectOptions {
  dryRun?: boolean;
  undo?: boolean;
  /**
   * sha256 of the diff the person said yes to (a dry run's `diffSha256`): the write happens
   * only while the change is still exactly that one. Absent: no consent check (tests, scripts).
   */
  expectDiffSha256?: string;
}

/**
 * The refusal when the change computed now is not the one the person saw (the file was
 * edited between the diff and the yes): nothing written, the change as it is now returned.
 */
function staleConsent(file: string, diff: string, opts: ConnectOptions): OpenClawConnectResult | undefined {
  if (opts.expectDiffSha256 === undefined || opts.expectDiffSha256 === sha256(diff)) return undefined;
  return {
    changed: false,
    stale: true,
    diff,
    diffSha256: sha256(diff),
    message: `${file} changed after the change was shown to you (OpenClaw or an editor wrote it), so what you agreed to is no longer what would be written: nothing was written. Here is the change as it is now; agree to this one to write it.`,
  };
}

/** The `openclaw` command to record the install with, if any. */
function openClawOf(deps: ConnectDeps): string | undefined {
  return deps.openclaw === null ? undefined : (deps.openclaw ?? findOpenClaw(deps.env));
}

const samePath = (a: string | undefined, b: string): boolean => a !== undefined && realFile(a) === realFile(b);

/** Connect `stateDir`'s OpenClaw to Cairn (or undo that); see {@link ConnectOptions}. */
export async function connectOpenClaw(stateDir: string, opts: ConnectOptions, deps: ConnectDeps): Promise<OpenClawConnectResult> {
  const dir = path.resolve(stateDir);
  if (opts.undo) return undo(dir, deps, opts);
  const read = readConfig(dir);
  const launch = deps.launch ?? currentLaunch();
  const want = pluginConfig(dir, launch, deps.env);
  const base = baseText(read, dir, deps.env);
  const edits = connectEdits(base === read.text ? read.config : JSON5.parse(base), launch, want);
  // OpenClaw's own install record of the plugin folder (else OpenClaw warns on every start).
  const openclaw = openClawOf(deps);
  const pluginDir = pluginDirOf(launch);
  const needRecord = Boolean(openclaw) && !samePath(recordedInstallPath(dir), pluginDir);
  if (edits.length === 0 && base === read.text && !needRecord) return { changed: false, diff: '', diffSha256: sha256(''), message: `${read.file} is already connected to Cairn.` };
  let after: string;
  try {
    after = applyEdits(base, edits);
    if (connectEdits(JSON5.parse(after), launch, want).length) throw new Error('edits left over');
  } catch (err) {
    throw new EngineError('internal', `the edit of ${read.file} did not come out as planned (${(err as Error).message}): nothing was written`);
  }
  const diff = unifiedDiff(read.file, read.text, after) + (needRecord ? installRecordDiff(dir, pluginDir, true) : '');
  const what = [
    ...(base === read.text ? [] : ["the old connect's set-up undone from its backup"]),
    ...edits.map((e) => `${e.remove ? 'remove ' : ''}${e.path.join('.')}`),
    ...(needRecord ? [`OpenClaw's install record of ${pluginDir} (by "openclaw plugins install --link")`] : []),
  ].join(', ');
  if (opts.dryRun) return { changed: false, diff, diffSha256: sha256(diff), message: `Would change ${what} in ${read.file}.` };
  const stale = staleConsent(read.file, diff, opts);
  if (stale) return stale;
  if (!isWritable(read.file)) throw new EngineError('read_only', `${read.file} is not writable: nothing was changed`);
  if (launch.copyPluginFrom) copyPlugin(launch.copyPluginFrom, pluginDirOf(launch));
  // No copy from before Cairn yet, but Cairn's plugin already set up: the copy is the file without it.
  const fresh = !readBackup(dir, deps.env);
  const backupPath = saveBackup(dir, deps.env, fresh ? withoutPlugin(read.text, read.config, [pluginDir], (t) => JSON5.parse(t)) : read.text);
  assertUnchanged(read);
  writeConfig(read.file, after);
  let recordFailed = '';
  if (needRecord && openclaw) {
    try {
      await withOpenClaw(openclaw, ['plugins', 'install', '--link', pluginDir, '--force', '--accept-capabilities'], dir, read.file, after, deps.env);
    } catch (err) {
      // Connected all the same (the plugin loads from plugins.load.paths); OpenClaw will warn until it is recorded.
      recordFailed = ` OpenClaw did not record the install, so it will warn that it cannot verify where the plugin came from: ${(err as Error).message}`;
    }
  }
  // Made from the saved copy (the old set-up undone from it): the file now is the copy plus Cairn's settings.
  recordConnect(dir, deps.env, read.file, after, deps.now?.() ?? new Date(), base !== read.text ? true : undefined);
  return {
    changed: true,
    diff,
    diffSha256: sha256(diff),
    backupPath,
    message: `Connected ${read.file} to Cairn's plugin (keeping its comments and layout)${needRecord ? ", with OpenClaw's own install record of it" : openclaw ? '' : ' (no openclaw command on PATH, so OpenClaw has no install record of the plugin and warns that it cannot verify where it came from: "openclaw plugins install --link ' + pluginDir + '" adds one)'}; nothing of OpenClaw's is switched off. The previous file is saved at ${backupPath}; "cairn connect openclaw --undo" puts it back. Restart a running OpenClaw gateway if it does not pick the change up.${recordFailed}`,
  };
}
