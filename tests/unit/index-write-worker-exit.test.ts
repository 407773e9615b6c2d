/**
 * An idle worker never keeps a process alive (issue 38, item 11; index/write-client.ts,
 * search/knn-worker.ts): a process that synced its index through the write worker — and one
 * that also answered a query on a KNN worker — and has nothing left to do ends on its own,
 * exit code 0. Each worker's message listener, added after unref(), had re-referenced its
 * port, so such a process (a script, a one-shot command with the worker forced on) never
 * ended. Real child processes, real worker threads, real SQLite.
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

interface Report {
  full: boolean[];
  chunks: number;
  hits?: number;
  resources: string[];
}

/** Run the child; resolves with its report (once printed) and its exit code (once it ends). */
async function run(...args: string[]): Promise<{ report: Report; exited: Promise<number | null> }> {
  const c = spawn(process.execPath, ['--import', 'tsx', path.resolve('tests/helpers/idle-worker-child.ts'), tmpDir(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
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
  return { report: JSON.parse(first) as Report, exited };
}

/** What holds the child's event loop, its own stdout and stderr pipes (the test's) aside. */
const holding = (r: Report) => r.resources.filter((x) => !x.startsWith('Pipe') && x !== 'TTYWrap');

describe('an idle worker', () => {
  it('(the write worker) lets its process end by itself', async () => {
    const { report, exited } = await run();
    // A full rebuild, then an incremental sync, both written by the worker; then idle.
    expect(report.full).toEqual([true, false]);
    expect(report.chunks).toBe(2);
    // No worker's port is left holding the event loop (an idle one was: "MessagePort")…
    expect(holding(report)).toEqual([]);
    // …so the process ends by itself, and cleanly.
    expect(await exited).toBe(0);
  });

  it('(the KNN worker, after a query) lets its process end by itself', async () => {
    const { report, exited } = await run('knn');
    expect(report.hits).toBe(2);
    expect(holding(report)).toEqual([]);
    expect(await exited).toBe(0);
  });
});
