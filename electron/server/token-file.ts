/**
 * The access token of `cairn serve`, kept in a file readable only by the user, one per state
 * dir, so a restart (on the same port) keeps the token an open window already holds and the
 * window reconnects by itself. A token file anyone else can read, or one that is
 * not a token, is replaced by a new one (a token someone else may have seen is worthless).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir } from '../engine/util/atomic-write';
import { foreignStateHome } from '../engine/config/data-dir';
import { newToken } from './security';

const TOKEN_RE = /^[A-Za-z0-9_-]{32,}$/;

/**
 * Where the token of `stateDir` lives: in Cairn's own folder of a state dir Cairn created
 * (`<state>/cairn/serve-token`), else (a foreign dir such as OpenClaw's gets nothing added) in
 * the dir's home in Cairn's data dir (engine/config/data-dir.ts), keyed by the directory's path.
 */
export function tokenFilePath(stateDir: string, createdBy: 'cairn' | 'external', env: NodeJS.ProcessEnv = process.env): string {
  if (createdBy === 'cairn') return path.join(stateDir, 'cairn', 'serve-token');
  return path.join(foreignStateHome(stateDir, env), 'serve-token');
}

function readUsable(file: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return undefined;
  }
  // POSIX only: Windows has no mode bits; its user profile folders are private already.
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) return undefined;
  const text = fs.readFileSync(file, 'utf8').trim();
  return TOKEN_RE.test(text) ? text : undefined;
}

/**
 * The token in `file`, created (mode 0600, atomically: a concurrent start reads the winner's)
 * when missing, unreadable as a token, or readable by others.
 */
export function loadOrCreateToken(file: string): string {
  const existing = readUsable(file);
  if (existing) return existing;
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const token = newToken();
  const tmp = path.join(dir, `.serve-token.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  fs.writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
  try {
    // Replace a bad file; link() then fails if another start created a good one meanwhile.
    if (fs.existsSync(file) && !readUsable(file)) fs.rmSync(file, { force: true });
    fs.linkSync(tmp, file);
    fsyncDir(dir);
    return token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`serve token ${file}: ${(err as Error).message}`);
    const winner = readUsable(file);
    if (!winner) throw new Error(`serve token ${file}: exists but is not a private token file; remove it and start again`);
    return winner;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
