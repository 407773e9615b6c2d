/**
 * The copy of openclaw.json that `connect` saves before it changes the file, and what it
 * wrote, so that `connect --undo` can put the file back — but only while the file is still
 * what connect left (an edit made since would otherwise be lost). Kept in Cairn's own home
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
  /** sha256 of the file as connect left it. */
  afterSha256: string;
  /** ISO time of the connect. */
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
 * Save `before` as the backup, unless the file is still what an earlier connect wrote (then
 * the earlier, original copy is the one to keep). Returns the copy's path.
 */
export function saveBackup(stateDir: string, env: NodeJS.ProcessEnv, before: string): string {
  const p = backupPaths(stateDir, env);
  const prior = readBackup(stateDir, env);
  if (prior && prior.afterSha256 === sha256(before)) return p.copy;
  fs.mkdirSync(p.dir, { recursive: true });
  writeFileAtomicSync(p.copy, before, { mode: 0o600 });
  return p.copy;
}

/** Record what connect left in `configFile`. */
export function recordConnect(stateDir: string, env: NodeJS.ProcessEnv, configFile: string, after: string, now: Date): void {
  const p = backupPaths(stateDir, env);
  const rec: BackupRecord = { configFile, afterSha256: sha256(after), at: now.toISOString() };
  writeFileAtomicSync(p.record, `${JSON.stringify(rec, null, 2)}\n`, { mode: 0o600 });
}

/** Forget the backup once it has been restored. */
export function dropBackup(stateDir: string, env: NodeJS.ProcessEnv): void {
  const p = backupPaths(stateDir, env);
  fs.rmSync(p.record, { force: true });
  fs.rmSync(p.copy, { force: true });
}
