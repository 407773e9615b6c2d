/** Run the real `cairn` executable (bin/cairn.mjs) as a child process. */
import { spawn } from 'node:child_process';
import path from 'node:path';

export const CAIRN_BIN = path.resolve(__dirname, '..', '..', 'bin', 'cairn.mjs');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `onStdout` sees each chunk as it arrives (to tell a streamed reply from one printed at the end). */
export function runCairn(args: string[], opts: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; onStdout?: (chunk: string) => void } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CAIRN_BIN, ...args], {
      env: { ...process.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
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
    child.stdin.end(opts.input ?? '');
  });
}
