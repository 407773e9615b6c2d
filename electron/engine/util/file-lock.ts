/**
 * A cross-process lock around a short read-modify-write of one file (a compaction entry,
 * sessions.json, a transcript rewrite). Built on proper-lockfile: the lock is a directory
 * `<file>.cairn-lock` made with mkdir (atomic on every file system, network ones included)
 * whose mtime is refreshed while it is held, so a lock left by a process that hung goes stale
 * and is taken over after LOCK_STALE_MS.
 *
 * Asynchronous end to end: the engine runs in Electron's main process, so waiting for
 * another holder never blocks its thread (the wait is timers between attempts; the engine
 * answers other calls meanwhile). The holder writes `owner.json` ({pid, starttime, host})
 * into the lock directory; a lock whose holder on this host is dead (no such pid, a zombie,
 * or the pid recycled by a process with another start time) is taken over at once instead of
 * after the stale time. Taking over renames the lock directory away (atomic: of two takers
 * only one moves it) and checks that what it moved is still the dead holder's; a lock taken
 * meanwhile by a live process is moved back. (What remains: a third process taking the lock
 * in the microseconds between that check and the move back loses it, as with
 * proper-lockfile's own stale takeover. A lock without a readable owner — another host, an
 * older Cairn, a holder between its mkdir and its write — is taken over only once stale.)
 *
 * Not `<file>.lock`: OpenClaw's own session write lock is a *file* `<session>.jsonl.lock`
 * holding {pid, createdAt}, which it reads and cleans up when stale. A directory of ours
 * under that name would break its stale-lock cleanup, and its lock file would make ours fail
 * on takeover. A name ending in something other than `.lock` also stays out of the
 * `rm -f sessions/*.lock` people use to clear OpenClaw's stuck locks.
 * OpenClaw's lock itself is honoured (never taken nor removed) by util/openclaw-lock.ts.
 *
 * The lock only orders writers that take it (Cairn's app, CLI and MCP server). A writer that
 * knows nothing of it (OpenClaw appending with O_APPEND) is handled by the callers: appends
 * are never copy-and-rename, and a rewrite re-checks the file's size right before its rename.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineError } from '../base/errors';
import { abortError } from './abort';
import { processExists, procStat } from './process-alive';

/** How long a lock may go without a refresh before another process takes it over. */
const LOCK_STALE_MS = 10_000;

/** The default time to wait for another process's lock before giving up. */
const LOCK_WAIT_MS = 15_000;

/** The file in the lock directory naming its holder. */
const OWNER_FILE = 'owner.json';

/** Another process held the lock for longer than the caller was willing to wait. */
export class FileLockedError extends EngineError {
  constructor(file: string, waitedMs: number) {
    super('conflict', `${file} is being written by another Cairn process (waited ${Math.round(waitedMs / 1000)} s for its lock ${lockPathOf(file)}); try again`);
    this.name = 'FileLockedError';
  }
}

/** Where the lock of `file` lives. */
export function lockPathOf(file: string): string {
  return `${file}.cairn-lock`;
}

/** Who holds a lock: enough to tell, on the same host, whether that process still runs. */
interface LockOwner {
  pid: number;
  starttime: number | null;
  host: string;
}

function ownerRecord(): string {
  const owner: LockOwner = { pid: process.pid, starttime: procStat(process.pid)?.starttime ?? null, host: os.hostname() };
  return JSON.stringify(owner);
}

/** True when `text` names a holder on this host that is certainly gone; anything unsure is alive. */
function holderDead(text: string): boolean {
  let owner: Partial<LockOwner>;
  try {
    owner = JSON.parse(text) as Partial<LockOwner>;
  } catch {
    return false; // half-written: its holder is between mkdir and write
  }
  if (typeof owner.pid !== 'number' || owner.host !== os.hostname()) return false;
  if (owner.pid === process.pid) return false; // this very process, in another operation
  if (!processExists(owner.pid)) return true;
  const proc = procStat(owner.pid);
  if (proc?.zombie) return true;
  return typeof owner.starttime === 'number' && proc?.starttime != null && proc.starttime !== owner.starttime;
}

/**
 * Take over the lock of `file` when its recorded holder is dead. True when the lock is gone
 * (taken over, or released meanwhile): the caller tries again at once.
 */
async function takeOverDead(file: string): Promise<boolean> {
  const lock = lockPathOf(file);
  const seen = await fs.promises.readFile(path.join(lock, OWNER_FILE), 'utf8').catch(() => null);
  if (seen === null || !holderDead(seen)) return false;
  const tomb = `${lock}.dead-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  try {
    await fs.promises.rename(lock, tomb);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
  const moved = await fs.promises.readFile(path.join(tomb, OWNER_FILE), 'utf8').catch(() => null);
  if (moved === seen) {
    await fs.promises.rm(tomb, { recursive: true, force: true });
    return true;
  }
  // Another process took the lock between the read and the rename: give it back.
  await fs.promises.rename(tomb, lock).catch(() => fs.promises.rm(tomb, { recursive: true, force: true }));
  return false;
}

/**
 * proper-lockfile and the fs it is handed, made on the first lock: loading the package
 * (graceful-fs, signal-exit) and copying fs cost a few ms of every `cairn search`, which takes
 * no lock. proper-lockfile removes its directory with rmdir; ours holds owner.json, so remove it whole.
 */
let locking: Promise<{ lock: typeof import('proper-lockfile').lock; fs: typeof fs }> | undefined;
const lockLib = () =>
  (locking ??= import('proper-lockfile').then((m) => ({
    lock: (m.default ?? m).lock,
    fs: { ...fs, rmdir: (p: string, cb: (err: NodeJS.ErrnoException | null) => void): void => fs.rm(p, { recursive: true, force: true }, cb) } as typeof fs,
  })));

/** One attempt: the release function, or null while another live process holds the lock. */
async function tryLock(file: string): Promise<(() => Promise<void>) | null> {
  let release: () => Promise<void>;
  const lib = await lockLib();
  try {
    release = await lib.lock(file, {
      realpath: false,
      lockfilePath: lockPathOf(file),
      stale: LOCK_STALE_MS,
      retries: 0,
      fs: lib.fs,
      // A holder whose lock went stale (its event loop was blocked for 10 s) must not crash
      // the process from a timer: its write has either finished or will be re-checked.
      onCompromised: () => undefined,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return null;
    throw err;
  }
  try {
    // Adding the file changes the directory's mtime, which proper-lockfile reads as "someone
    // else took the lock": put back the mtime it set.
    const dir = lockPathOf(file);
    const st = fs.statSync(dir);
    fs.writeFileSync(path.join(dir, OWNER_FILE), ownerRecord());
    fs.utimesSync(dir, st.atime, st.mtime);
  } catch (err) {
    await release().catch(() => undefined);
    throw err;
  }
  return release;
}

/** Wait `ms` without blocking the thread; an abort ends the wait early. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Take the lock of `file`, waiting for another holder up to `waitMs`. */
async function acquire(file: string, waitMs: number, signal: AbortSignal | undefined): Promise<() => Promise<void>> {
  const started = Date.now();
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    if (signal?.aborted) throw abortError(signal, `cancelled while waiting for the lock ${lockPathOf(file)}`);
    const release = await tryLock(file);
    if (release) return release;
    if (await takeOverDead(file)) continue;
    const waited = Date.now() - started;
    if (waited >= waitMs) throw new FileLockedError(file, waited);
    await pause(Math.min(wait, waitMs - waited), signal);
  }
}

/**
 * Run `fn` while holding the cross-process lock of `file` (which need not exist yet).
 * Waits up to `waitMs` for another live holder (a dead one is taken over at once), then
 * rejects with FileLockedError; `signal` cancels the wait. The lock is released however
 * `fn` ends.
 */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>, opts: { waitMs?: number | undefined; signal?: AbortSignal | undefined } = {}): Promise<T> {
  const release = await acquire(file, opts.waitMs ?? LOCK_WAIT_MS, opts.signal);
  try {
    return await fn();
  } finally {
    // Already released as compromised (taken over as stale): nothing left to undo.
    await release().catch(() => undefined);
  }
}
