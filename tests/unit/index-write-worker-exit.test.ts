/**
 * An idle write worker never keeps a process alive (issue 38, item 11; index/write-client.ts):
 * a process that synced its index through the worker and has nothing left to do ends on its
 * own, exit code 0 — the worker's message listener had re-referenced its port after unref(),
 * so such a process (a script, a one-shot command with the worker forced on) never ended.
 * Real child process, real worker thread, real SQLite.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp';

let child: ChildProcess | undefined;
afterEach(() => {
  if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

describe('write worker', () => {
  it('left idle, lets its process end by itself', async () => {
    const c = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/helpers/idle-write-worker-child.ts'), tmpDir()], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let out = '';
    let err = '';
    c.stderr.on('data', (b: Buffer) => (err += b));
    const printed = new Promise<string>((resolve) => c.stdout.on('data', (b: Buffer) => (out += b).includes('\n') && resolve(out)));
    const exited = new Promise<number | null>((resolve, reject) => {
      c.on('error', reject);
      c.on('exit', (code) => resolve(code));
    });
    const first = await Promise.race([printed, exited.then(() => out)]);
    expect(first, err).toMatch(/\n$/);
    const report = JSON.parse(first) as { full: boolean[]; chunks: number; resources: string[] };
    // A full rebuild, then an incremental sync, both written by the worker; then idle.
    expect(report.full).toEqual([true, false]);
    expect(report.chunks).toBe(2);
    // No worker's port is left holding the event loop (an idle one was: "MessagePort";
    // the child's own stdout and stderr pipes are the test's)…
    expect(report.resources.filter((r) => !r.startsWith('Pipe') && r !== 'TTYWrap')).toEqual([]);
    // …so the process ends by itself, and cleanly.
    expect(await exited).toBe(0);
  });
});
