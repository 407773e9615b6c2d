/**
 * The engine's user-facing errors: EngineError (a contract error code plus a message) and the
 * readable description of a raw Node system error (ENOENT, EACCES, ENOSPC…). Every domain
 * error class extends EngineError with the code it crosses the contract with, so the
 * dispatcher maps every error in one place and none reaches a client as `internal`.
 * On the ground floor (base/, below config, util and rpc, which core/context.ts builds on) so
 * every floor can throw it, and apart from the dispatcher so that code which only throws it
 * does not load every channel's zod schema — that was a fifth of `cairn search`'s start-up.
 * The domains above core import it as `core/errors` (a re-export).
 */
import type { ErrorCode, FieldError } from '../../../shared/contract/define';

export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The request fields at fault, when the error is about a field (the UI marks them). */
    readonly fields?: FieldError[],
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** A Node system error: its errno name (`ENOENT`), the call that failed and the path(s) it named. */
export interface SystemError extends Error {
  code: string;
  syscall?: string;
  path?: string;
  dest?: string;
}

/** True for an error Node raised from a system call (it carries an `E…` code and a syscall). */
export function isSystemError(err: unknown): err is SystemError {
  const e = err as Partial<SystemError> | null;
  return err instanceof Error && typeof e?.code === 'string' && /^E[A-Z0-9]+$/.test(e.code) && typeof e.syscall === 'string';
}

/** What each errno means to a person, and the contract code it crosses with. */
const ERRNO: Record<string, { code: ErrorCode; says: string }> = {
  ENOENT: { code: 'not_found', says: 'it, or a folder on its path, does not exist (or is a link to a missing place)' },
  ENOTDIR: { code: 'not_found', says: 'a part of its path is a file, not a folder' },
  EACCES: { code: 'forbidden', says: 'permission denied' },
  EPERM: { code: 'forbidden', says: 'the operation is not permitted' },
  EROFS: { code: 'read_only', says: 'the file system is read-only' },
  EISDIR: { code: 'bad_request', says: 'it is a folder, not a file' },
  ENAMETOOLONG: { code: 'bad_request', says: 'the name is too long' },
  ELOOP: { code: 'bad_request', says: 'its path has a loop of symbolic links' },
  EEXIST: { code: 'conflict', says: 'it already exists' },
  ENOTEMPTY: { code: 'conflict', says: 'the folder is not empty' },
  EBUSY: { code: 'conflict', says: 'it is in use by another program' },
  EXDEV: { code: 'conflict', says: 'it cannot be moved across file systems' },
  ENOSPC: { code: 'unavailable', says: 'the disk is full' },
  EDQUOT: { code: 'unavailable', says: 'the disk quota is used up' },
  EFBIG: { code: 'unavailable', says: 'the file is too large for the file system' },
  EMFILE: { code: 'unavailable', says: 'too many files are open' },
  ENFILE: { code: 'unavailable', says: 'too many files are open on the system' },
  EIO: { code: 'unavailable', says: 'the disk reported an input/output error' },
  EAGAIN: { code: 'unavailable', says: 'the resource is temporarily unavailable' },
};

/** The failed call in words ("create the folder"), from Node's syscall name. */
const VERB: Record<string, string> = {
  open: 'open',
  read: 'read',
  write: 'write',
  mkdir: 'create the folder',
  rmdir: 'remove the folder',
  rm: 'remove',
  unlink: 'delete',
  rename: 'move',
  copyfile: 'copy',
  scandir: 'list the folder',
  opendir: 'list the folder',
  stat: 'read',
  lstat: 'read',
  fstat: 'read',
  access: 'reach',
  realpath: 'resolve',
  readlink: 'resolve the link',
  symlink: 'create the link',
  link: 'create the link',
  chmod: 'change the permissions of',
  utime: 'touch',
  fsync: 'save',
  ftruncate: 'truncate',
};

/**
 * The contract code and a readable message for a system error: what could not be done to
 * which path, and why in words, with the errno kept at the end for searching
 * ("cannot create the folder /w/notes: it, or a folder on its path, does not exist … (ENOENT)").
 * `shownPath` replaces the absolute path (a tool shows the model workspace-relative paths).
 */
export function describeSystemError(err: SystemError, shownPath?: string): { code: ErrorCode; message: string } {
  const known = ERRNO[err.code];
  const verb = VERB[err.syscall ?? ''] ?? err.syscall ?? 'use';
  const target = shownPath ?? err.path;
  const what = target ? ` ${target}${err.dest && !shownPath ? ` to ${err.dest}` : ''}` : '';
  const listing = err.code === 'ENOTDIR' && (err.syscall === 'scandir' || err.syscall === 'opendir');
  const why = listing ? 'it is a file, not a folder' : known ? known.says : err.message.replace(/^[A-Z0-9]+: /, '').replace(/, \w+ '.*$/, '');
  return { code: known?.code ?? 'internal', message: `cannot ${verb}${what}: ${why} (${err.code})` };
}

/**
 * `err` naming `file` when it is a system error that names no path or only `tmp` (a call on
 * a descriptor names none; a failed atomic write names its temp file), so the message says
 * which of the user's files failed; `as` names the step as the caller sees it (the rename
 * that ends an atomic write is its `write`).
 */
export function namingPath(err: unknown, file: string, o: { tmp?: string; as?: string } = {}): unknown {
  if (!isSystemError(err) || (err.path !== undefined && err.path !== o.tmp)) return err;
  err.path = file;
  if (err.dest === file) delete err.dest;
  if (o.as) err.syscall = o.as;
  return err;
}

/** A readable message for any thrown value: system errors in words, others as their message. */
export function errorMessage(err: unknown): string {
  if (isSystemError(err)) return describeSystemError(err).message;
  return err instanceof Error ? err.message : String(err);
}
