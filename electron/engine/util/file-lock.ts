/**
 * A cross-process lock around a short read-modify-write of one file (a transcript rewrite,
 * a compaction entry, sessions.json). Built on proper-lockfile: the lock is a directory
 * `<file>.cairn-lock` made with mkdir (atomic on every file system, network ones included)
 * whose mtime is refreshed while it is held, so a lock left by a killed process goes stale
 * and is taken over after LOCK_STALE_MS.
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
import lockfile from 'proper-lockfile';
import { EngineError } from '../core/errors';

/** How long a lock may go without a refresh before another process takes it over. */
const LOCK_STALE_MS = 10_000;

/** The default time to wait for another process's lock before giving up. */
const LOCK_WAIT_MS = 15_000;

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

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Block this thread for `ms`. The callers are synchronous writers whose critical sections
 * are a few milliseconds; waiting synchronously keeps them synchronous (and their callers
 * unchanged) at the cost of a short stall only while another process holds the lock.
 */
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * Run `fn` while holding the cross-process lock of `file` (which need not exist yet).
 * Waits up to `waitMs` for another holder, then throws FileLockedError.
 */
export function withFileLockSync<T>(file: string, fn: () => T, opts: { waitMs?: number } = {}): T {
  const waitMs = opts.waitMs ?? LOCK_WAIT_MS;
  const started = Date.now();
  let release: () => void;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      release = lockfile.lockSync(file, {
        realpath: false,
        lockfilePath: lockPathOf(file),
        stale: LOCK_STALE_MS,
        // A holder whose lock went stale (its event loop was blocked for 10 s) must not crash
        // the process from a timer: its write has either finished or will be re-checked.
        onCompromised: () => undefined,
      });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      if (Date.now() - started >= waitMs) throw new FileLockedError(file, Date.now() - started);
      sleepSync(pause);
    }
  }
  try {
    return fn();
  } finally {
    try {
      release();
    } catch {
      // Already released as compromised (taken over as stale); nothing left to undo.
    }
  }
}
