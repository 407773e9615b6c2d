/**
 * Honouring OpenClaw's session write lock. While OpenClaw's agent writes a session it holds a
 * *file* `<realpath of the sessions dir>/<session>.jsonl.lock`, made with open(…, 'wx') and
 * holding `{"pid", "createdAt", "starttime"?, "maxHoldMs"?}` (openclaw/openclaw
 * src/agents/session-write-lock.ts; `starttime` is field 22 of /proc/<pid>/stat). Cairn only
 * reads that file: it never takes it and never removes it (OpenClaw cleans up its own stale
 * locks; a Cairn process deleting one would race OpenClaw re-taking it). A Cairn write to a
 * transcript is refused while a live lock is there, so a compaction entry or a chat line never
 * lands in the middle of an OpenClaw turn (whose next entries would fork the branch).
 *
 * Live or stale is decided by OpenClaw's own rule (inspectLockPayload there): stale when the
 * pid is missing, dead (or a zombie), or recycled (alive but with another start time), or
 * when `createdAt` is older than 30 min; a lock without a readable payload (OpenClaw is
 * between its open and its write) counts as live until its mtime is 30 s old. Two deliberate
 * differences, both erring on "live": EPERM from kill(pid, 0) means the process exists (an
 * OpenClaw running as another user), where OpenClaw says dead; and OpenClaw's newest check of
 * the owner's argv ("non-openclaw-owner") is not made. A lock carrying this very process's
 * pid is stale: Cairn never writes one, so no live OpenClaw holds it.
 *
 * What remains: OpenClaw may take its lock between Cairn's check and Cairn's write (a few
 * milliseconds). Only taking the lock itself would close that; see docs/architecture.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { abortError } from './abort';
import { processExists, procStat } from './process-alive';
import { EngineError } from '../base/errors';

/** OpenClaw's DEFAULT_SESSION_WRITE_LOCK_STALE_MS: a lock older than this is stale. */
export const OPENCLAW_LOCK_STALE_MS = 30 * 60 * 1000;

/** OpenClaw's ORPHAN_LOCK_PAYLOAD_GRACE_MS: how long a lock may stay without its payload. */
const PAYLOAD_GRACE_MS = 30_000;

/** How long an async writer waits for OpenClaw to finish before giving up (default). */
export const OPENCLAW_WAIT_MS = 10_000;

/** Re-check this often while waiting: a holder killed with SIGKILL leaves no file event. */
const POLL_MS = 250;

/** A live OpenClaw lock on a session file. */
export interface OpenClawLock {
  lockPath: string;
  /** null while OpenClaw has created the file but not yet written its payload. */
  pid: number | null;
  createdAt: string | null;
}

/** Cairn refused to write `file` because OpenClaw holds its session write lock. */
export class OpenClawLockedError extends EngineError {
  readonly file: string;
  readonly lock: OpenClawLock;
  constructor(file: string, lock: OpenClawLock, waitedMs = 0) {
    const who = lock.pid === null ? 'by an OpenClaw process that has not written its pid yet' : `by pid ${lock.pid}`;
    const since = lock.createdAt ? ` since ${lock.createdAt}` : '';
    const waited = waitedMs > 0 ? `, still held after waiting ${Math.round(waitedMs / 1000)} s` : '';
    super('conflict', `${file}: OpenClaw is writing this session (lock ${lock.lockPath} held ${who}${since}${waited}); nothing was written, try again when it is idle`);
    this.name = 'OpenClawLockedError';
    this.file = file;
    this.lock = lock;
  }
}

/** Where OpenClaw puts the lock of `file`: it resolves the directory's real path first. */
export function openclawLockPathOf(file: string): string {
  const abs = path.resolve(file);
  let dir = path.dirname(abs);
  try {
    dir = fs.realpathSync(dir);
  } catch {
    // OpenClaw falls back to the resolved path too.
  }
  return path.join(dir, `${path.basename(abs)}.lock`);
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/**
 * The live OpenClaw lock on `file`, or null when there is none or it is stale by OpenClaw's
 * rule (see the header). Reads only; never removes the lock file.
 */
export function liveOpenClawLock(file: string, now = Date.now()): OpenClawLock | null {
  const lockPath = openclawLockPathOf(file);
  let raw: string;
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(lockPath).mtimeMs;
    raw = fs.readFileSync(lockPath, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // A lock we cannot read (EACCES, a directory) is still a lock: keep out.
    return { lockPath, pid: null, createdAt: null };
  }
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object') payload = parsed as Record<string, unknown>;
  } catch {
    // Empty or half-written: OpenClaw is between open('wx') and writing its payload.
  }
  const pid = isCount(payload.pid) ? payload.pid : null;
  const createdAt = typeof payload.createdAt === 'string' ? payload.createdAt : null;
  const createdMs = createdAt ? Date.parse(createdAt) : Number.NaN;
  if (pid !== null) {
    if (pid === process.pid) return null;
    if (!processExists(pid)) return null; // dead-pid
    const proc = procStat(pid);
    if (proc?.zombie) return null;
    const recorded = Number.isInteger(payload.starttime) && (payload.starttime as number) >= 0 ? (payload.starttime as number) : null;
    if (recorded !== null && proc?.starttime != null && proc.starttime !== recorded) return null; // recycled-pid
  }
  if (Number.isFinite(createdMs) && now - createdMs > OPENCLAW_LOCK_STALE_MS) return null; // too-old
  // Missing pid or createdAt (OpenClaw between open('wx') and writing its payload): OpenClaw's
  // mtime fallback makes it stale only once it stayed so for the grace.
  if ((pid === null || !Number.isFinite(createdMs)) && now - mtimeMs > PAYLOAD_GRACE_MS) return null;
  return { lockPath, pid, createdAt };
}

/**
 * Throw OpenClawLockedError when OpenClaw holds a live lock on `file`. Synchronous writers
 * call this right before writing; they do not wait (the engine's thread would stall), the
 * async callers wait first with waitForOpenClawIdle.
 */
export function assertOpenClawIdle(file: string): void {
  const lock = liveOpenClawLock(file);
  if (lock) throw new OpenClawLockedError(file, lock);
}

/**
 * Wait until OpenClaw holds no live lock on `file`: woken by changes in the sessions dir (the
 * lock removed) and re-checked every POLL_MS (a killed holder's pid dies without a file event).
 * Rejects with OpenClawLockedError after `waitMs`, or with an AbortError on `signal`.
 * `onWait` is called once, when there is something to wait for.
 */
export async function waitForOpenClawIdle(file: string, opts: { waitMs?: number | undefined; signal?: AbortSignal | undefined; onWait?: ((lock: OpenClawLock) => void) | undefined } = {}): Promise<void> {
  let lock = liveOpenClawLock(file);
  if (!lock) return;
  opts.onWait?.(lock);
  const waitMs = opts.waitMs ?? OPENCLAW_WAIT_MS;
  const started = Date.now();
  const lockName = path.basename(lock.lockPath);
  let wake: () => void = () => undefined;
  let watcher: fs.FSWatcher | undefined;
  try {
    watcher = fs.watch(path.dirname(lock.lockPath), (_event, name) => {
      if (!name || name === lockName) wake();
    });
    watcher.on('error', () => undefined); // polling still runs
  } catch {
    // Some file systems cannot be watched: polling alone.
  }
  const onAbort = (): void => wake();
  opts.signal?.addEventListener('abort', onAbort);
  try {
    for (;;) {
      if (opts.signal?.aborted) throw abortError(opts.signal, 'cancelled while waiting for OpenClaw to finish writing');
      const left = waitMs - (Date.now() - started);
      if (left <= 0) throw new OpenClawLockedError(file, lock, Date.now() - started);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(POLL_MS, left));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const now = liveOpenClawLock(file);
      if (!now) return;
      lock = now;
    }
  } finally {
    watcher?.close();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
