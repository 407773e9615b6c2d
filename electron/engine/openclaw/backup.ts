/**
 * The copy of openclaw.json that Cairn's FIRST connect saved before it changed the file, and
 * what each connect wrote, so that `connect --undo` can put OpenClaw back as it was before
 * Cairn ever touched it: byte for byte while the file is still what that first connect wrote,
 * else by taking Cairn's own settings out (undo.ts). A later connect never replaces the copy —
 * the file it sees is already Cairn's work (a hand edit between two connects made the
 * second one save a connected file as "the original"). Kept in Cairn's own home
 * for that state dir (config/data-dir.ts), not beside openclaw.json: Cairn adds no file to an
 * OpenClaw dir, and OpenClaw's own `config set` already uses `openclaw.json.bak` there.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { foreignStateHome } from '../config/data-dir';
import { writeFileAtomicSync } from '../util/atomic-write';

/** What the last connect did to one openclaw.json. */
export interface BackupRecord {
  /** The openclaw.json changed (absolute). */
  configFile: string;
  /** sha256 of the file as the last connect left it. */
  afterSha256: string;
  /** sha256 of the file as the first connect (the one that saved the copy) left it; absent in records of older Cairns (then `afterSha256`). */
  firstAfterSha256?: string;
  /** ISO time of the first connect (absent in older records). */
  firstAt?: string;
  /** ISO time of the last connect. */
  at: string;
}

/** sha256 of a text, hex. */
export const sha256 = (text: string): string => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

/** Where the backup of `stateDir`'s openclaw.json and its record live. */
export function backupPaths(stateDir: string, env: NodeJS.ProcessEnv): { dir: string; copy: string; record: string } {
  const dir = path.join(foreignStateHome(stateDir, env), 'openclaw-connect');
  return { dir, copy: path.join(dir, 'openclaw.json.before-connect'), record: path.join(dir, 'connect.json') };
}

/** The record of the last connect, or undefined when there is none (or it is unreadable). */
export function readBackup(stateDir: string, env: NodeJS.ProcessEnv): (BackupRecord & { copy: string }) | undefined {
  const p = backupPaths(stateDir, env);
  try {
    const rec = JSON.parse(fs.readFileSync(p.record, 'utf8')) as BackupRecord;
    if (!fs.existsSync(p.copy) || typeof rec.afterSha256 !== 'string') return undefined;
    return { ...rec, copy: p.copy };
  } catch {
    return undefined;
  }
}

/**
 * Save `before` as the backup, unless an earlier connect's backup is still kept: that one is
 * the file from before Cairn's first connect, and `before` already holds Cairn's work (or a
 * hand edit of it). Returns the copy's path.
 */
export function saveBackup(stateDir: string, env: NodeJS.ProcessEnv, before: string): string {
  const p = backupPaths(stateDir, env);
  if (readBackup(stateDir, env)) return p.copy;
  fs.mkdirSync(p.dir, { recursive: true });
  writeFileAtomicSync(p.copy, before, { mode: 0o600 });
  return p.copy;
}

/**
 * Record what connect left in `configFile`. `first`: this connect's text was made from the
 * saved copy (the first connect, or one that rebuilt the set-up from the copy), so the file
 * byte-equal to `after` is the copy plus Cairn's settings and nothing else; default: whether
 * no record was kept before.
 */
export function recordConnect(stateDir: string, env: NodeJS.ProcessEnv, configFile: string, after: string, now: Date, first?: boolean): void {
  const p = backupPaths(stateDir, env);
  const prior = readBackup(stateDir, env);
  const isFirst = first ?? !prior;
  const afterSha256 = sha256(after);
  const rec: BackupRecord = {
    configFile,
    afterSha256,
    firstAfterSha256: isFirst || !prior ? afterSha256 : (prior.firstAfterSha256 ?? prior.afterSha256),
    firstAt: isFirst || !prior ? now.toISOString() : (prior.firstAt ?? prior.at),
    at: now.toISOString(),
  };
  writeFileAtomicSync(p.record, `${JSON.stringify(rec, null, 2)}\n`, { mode: 0o600 });
}

/** Forget the backup once it has been restored (`keepCopy`: the copy stays for the person to compare; the next connect replaces it). */
export function dropBackup(stateDir: string, env: NodeJS.ProcessEnv, keepCopy = false): void {
  const p = backupPaths(stateDir, env);
  fs.rmSync(p.record, { force: true });
  if (!keepCopy) fs.rmSync(p.copy, { force: true });
}
