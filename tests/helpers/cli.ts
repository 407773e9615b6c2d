/** Run the real `cairn` executable (bin/cairn.mjs) as a child process. */
import { spawn } from 'node:child_process';
import path from 'node:path';

export const CAIRN_BIN = path.resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Added to this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed; `null` keeps stdin open (a command must not wait for it). */
  input?: string | null;
  timeoutMs?: number;
  /** Sees each chunk as it arrives (to tell a streamed reply from one printed at the end). */
  onStdout?: (chunk: string) => void;
}

/** Run `cmd args` and collect its output; killed after `timeoutMs` (60 s). */
export function runProcess(cmd: string, args: string[], opts: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      opts.onStdout?.(c);
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (opts.input !== null) child.stdin.end(opts.input ?? '');
  });
}

/** Run the real `cairn` under this Node. */
export function runCairn(args: string[], opts: RunOptions = {}): Promise<CliResult> {
  return runProcess(process.execPath, [CAIRN_BIN, ...args], opts);
}
