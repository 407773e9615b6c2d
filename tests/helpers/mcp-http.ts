/** Start the real `cairn mcp --http` on a temp state dir and read the URL it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { CAIRN_BIN } from './cli';

export interface McpHttpChild {
  /** The URL `cairn mcp --http` printed (`http://127.0.0.1:<port>/mcp?token=…`). */
  url: URL;
  token: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Spawn `cairn [pre...] mcp --http --state-dir <dir>` and resolve once it prints its URL. */
export function startMcpHttp(stateDir: string, pre: string[] = []): Promise<McpHttpChild> {
  const child = spawn(process.execPath, [CAIRN_BIN, ...pre, 'mcp', '--http', '--state-dir', stateDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp\?token=\S+)/.exec(out);
      if (m?.[1]) {
        const url = new URL(m[1]);
        resolve({ url, token: url.searchParams.get('token') ?? '', child, stop });
      }
    });
    child.once('close', (code) => reject(new Error(`cairn mcp --http exited (${code}) before printing its URL: ${err || out}`)));
  });
}
