/**
 * Run one qmd command as a child process, with a deadline and cancellation. Each failure
 * has a kind (missing binary, non-zero exit, timeout, cancelled) so the backend can say
 * exactly why it fell back to the built-in index. The child gets its own process group
 * and the whole group is killed on timeout/abort/dispose: a configured `command` is often
 * a wrapper script (`#!/bin/sh` + `exec node …`, or npm's `qmd` launcher, which spawns a
 * second node) and killing only the wrapper would leave the real qmd running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EngineError } from '../core/errors';

/** Why a qmd call failed (`busy`: QMD is still building its first index — not a fault). */
export type QmdFailureKind = 'missing' | 'exit' | 'timeout' | 'aborted' | 'parse' | 'config' | 'busy';

/** A qmd call that did not give a usable answer. */
export class QmdError extends EngineError {
  constructor(
    readonly kind: QmdFailureKind,
    message: string,
  ) {
    // QMD missing, failing or busy: the search falls back; a caller asking QMD itself is told it is unavailable.
    super(kind === 'aborted' ? 'cancelled' : 'unavailable', message);
    this.name = 'QmdError';
  }
}

export interface QmdRunResult {
  stdout: string;
  stderr: string;
}

export interface QmdRunOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Called with the child right after spawn (the manager tracks children to kill on dispose). */
  onSpawn?: (child: ChildProcess) => void;
}

/** Keep at most this much of a stream: a runaway child must not exhaust memory. */
const MAX_OUTPUT = 16 * 1024 * 1024;

/**
 * Split the configured `command` into program + leading arguments. A plain path (even one
 * with spaces) is used as-is when it exists as written; otherwise words are split on
 * whitespace, with "double" or 'single' quotes grouping, so `node /opt/qmd/dist/cli/qmd.js`
 * works too.
 */
export function splitCommand(command: string, exists: (p: string) => boolean): string[] {
  const trimmed = command.trim();
  if (!trimmed) return [];
  if (!/\s/.test(trimmed) || exists(trimmed)) return [trimmed];
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(trimmed))) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** Kill the child's whole process group (falls back to the child alone). */
export function killTree(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

function tail(text: string, max = 400): string {
  const t = text.trim();
  return t.length > max ? `…${t.slice(-max)}` : t;
}

/**
 * Run `argv[0] …argv[1..] …args`. Resolves with the output on exit code 0; rejects with a
 * {@link QmdError} otherwise. On timeout or abort the process group is killed and the
 * promise settles only after the child has exited, so no qmd outlives the call.
 */
export function runQmd(argv: string[], args: string[], opts: QmdRunOptions): Promise<QmdRunResult> {
  const [program, ...lead] = argv;
  if (!program) return Promise.reject(new QmdError('config', 'memory.qmd.command is empty'));
  if (opts.signal?.aborted) return Promise.reject(new QmdError('aborted', 'qmd call cancelled'));
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(program, [...lead, ...args], {
        cwd: opts.cwd,
        env: opts.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        // Own process group: lets killTree take wrapper scripts' children with it.
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (err) {
      reject(new QmdError('missing', `cannot start ${program}: ${(err as Error).message}`));
      return;
    }
    opts.onSpawn?.(child);
    const out: Buffer[] = [];
    const errOut: Buffer[] = [];
    let outLen = 0;
    let errLen = 0;
    child.stdout?.on('data', (b: Buffer) => {
      if (outLen < MAX_OUTPUT) out.push(b);
      outLen += b.length;
    });
    child.stderr?.on('data', (b: Buffer) => {
      if (errLen < MAX_OUTPUT) errOut.push(b);
      errLen += b.length;
    });
    let failure: QmdError | undefined;
    const stop = (e: QmdError) => {
      failure ??= e;
      killTree(child);
    };
    const timer = setTimeout(() => stop(new QmdError('timeout', `qmd ${args[0] ?? ''} timed out after ${opts.timeoutMs} ms`)), opts.timeoutMs);
    const onAbort = () => stop(new QmdError('aborted', 'qmd call cancelled'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (err: NodeJS.ErrnoException) => {
      done();
      const missing = err.code === 'ENOENT' || err.code === 'EACCES';
      reject(
        failure ??
          new QmdError(
            missing ? 'missing' : 'exit',
            missing ? `the qmd command was not found or is not executable: ${program} (${err.code})` : `qmd failed to start: ${err.message}`,
          ),
      );
    });
    child.on('close', (code, signal) => {
      done();
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(errOut).toString('utf8');
      if (failure) return reject(failure);
      if (code === 0) return resolve({ stdout, stderr });
      const why = tail(stderr) || tail(stdout) || 'no output';
      reject(new QmdError('exit', `qmd ${args[0] ?? ''} exited with ${code ?? signal}: ${why}`));
    });
  });
}
