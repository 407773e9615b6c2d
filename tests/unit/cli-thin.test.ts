/**
 * `cairn search` answered by a running `cairn serve` (bin/thin-client.mjs): the same stdout
 * byte for byte as the in-process command (text and --json, also after a note changed and
 * while the engine holds a warning), and a discovery record that is missing, stale (dead pid)
 * or belongs to another process (a reused pid) is ignored. Real `cairn` processes on a real temp state dir.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { processStart } from '../../electron/engine/util/process-alive';
import { CAIRN_BIN, runCairn } from '../helpers/cli';
import { childLines } from '../helpers/child-lines';
import { tmpDir, writeTree } from '../helpers/tmp';

const VIA_ENGINE = /by the running engine, pid \d+/;
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

function stateDir(): string {
  return fs.realpathSync(
    writeTree(tmpDir('cairn-thin-'), {
      'cairn/state.json': '{}',
      'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim.\n',
      'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed the router firmware a1b2c3d.\n',
      'workspace/memory/2024-06-01.md': '# Trip\n\nBooked the kayak trip with the router.\n',
    }),
  );
}

const record = (dir: string) => path.join(dir, 'cairn', 'serve-engine.json');
const inProcess = (args: string[]) => runCairn(args, { env: { CAIRN_THIN: '0' } });

/** A real `cairn serve` on `dir`; resolves once it listens (its record is written by then). */
async function serve(dir: string): Promise<{ stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [CAIRN_BIN, '--state-dir', dir, 'serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(await childLines(child, 'cairn serve')()).toMatch(/^Cairn is serving /);
  return {
    stop() {
      child.kill('SIGINT');
      return exited;
    },
  };
}

describe('cairn search with a running cairn serve', () => {
  it('prints the same stdout as the in-process search, text and --json, and syncs a changed note first', { timeout: 180_000 }, async () => {
    const dir = stateDir();
    const server = await serve(dir);
    const st = fs.statSync(record(dir));
    expect(st.mode & 0o777).toBe(0o600);
    for (const args of [
      ['search', 'router firmware', '--state-dir', dir],
      ['search', 'router', '--state-dir', dir, '--json', '--explain', '-n', '2', '--min-score', '0'],
      ['--state-dir', dir, 'search', 'kayak', '--explain', '--since', '2024-05-09'],
    ]) {
      const thin = await runCairn(args);
      const own = await inProcess(args);
      expect(thin.code).toBe(0);
      // The status line on stderr says who answered (--json prints none).
      if (!args.includes('--json')) expect(thin.stderr).toMatch(VIA_ENGINE);
      expect(own.stderr).not.toMatch(VIA_ENGINE);
      expect(thin.stdout).toBe(own.stdout);
    }
    // A note written while the engine runs: the engine's search syncs it first, as the CLI's does.
    fs.writeFileSync(path.join(dir, 'workspace', 'memory', '2024-07-02.md'), '# Bike\n\nFixed the bicycle chain zqxv.\n');
    const thin = await runCairn(['search', 'zqxv', '--state-dir', dir, '--json']);
    expect(thin.stdout).toContain('memory/2024-07-02.md');
    expect(thin.stdout).toBe((await inProcess(['search', 'zqxv', '--state-dir', dir, '--json'])).stdout);
    // An option the fast path does not know: the in-process command answers (and refuses it).
    const odd = await runCairn(['search', 'router', '--state-dir', dir, '--bogus']);
    expect(odd.code).toBe(2);
    expect(await server.stop()).toBe(0);
    // A clean stop removes the record.
    expect(fs.existsSync(record(dir))).toBe(false);
  });

  it("--json with a warning the engine holds: the in-process command answers, listing it", { timeout: 180_000 }, async () => {
    const dir = stateDir();
    const bad = { agents: { list: [{ id: 'main', memorySearch: { chunking: { tokens: -5 } } }] } };
    fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify(bad));
    const server = await serve(dir);
    const args = ['search', 'router', '--state-dir', dir, '--json'];
    // The first search raises the warning in the engine; this and every later one match.
    for (let i = 0; i < 2; i++) {
      const thin = await runCairn(args);
      expect(thin.stdout).toMatch(/agents\.entries\.main\.memory\.search is invalid/);
      expect(thin.stdout).toBe((await inProcess(args)).stdout);
    }
    // Text mode does not print the context's warnings: the engine still answers it.
    const text = await runCairn(['search', 'router', '--state-dir', dir]);
    expect(text.stderr).toMatch(VIA_ENGINE);
    expect(text.stdout).toBe((await inProcess(['search', 'router', '--state-dir', dir])).stdout);
    expect(await server.stop()).toBe(0);
  });

  it('finds the engine of a state dir Cairn did not create (its record is in the data dir)', { timeout: 180_000 }, async () => {
    const dir = fs.realpathSync(writeTree(tmpDir('cairn-thin-foreign-'), { 'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed the router firmware a1b2c3d.\n' }));
    const server = await serve(dir);
    expect(fs.existsSync(record(dir))).toBe(false); // nothing added to a foreign dir
    const args = ['search', 'router firmware', '--state-dir', dir];
    const thin = await runCairn(args);
    expect(thin.stderr).toMatch(VIA_ENGINE);
    expect(thin.stdout).toBe((await inProcess(args)).stdout);
    expect(thin.stdout).toMatch(/^1\. memory\/2024-05-08\.md/);
    expect(await server.stop()).toBe(0);
  });

  it('ignores a record of a dead pid or of a pid now used by another process', { timeout: 180_000 }, async () => {
    const dir = stateDir();
    const expected = (await inProcess(['search', 'router', '--state-dir', dir])).stdout;
    expect(expected).toMatch(/^1\. memory\//);
    // A process on the record's port that is not the engine: it would answer "no results".
    const fake = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, value: { results: [], mode: 'hybrid', embedder: null, warnings: [], tookMs: 1 } }));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as AddressInfo).port;
    const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
    const write = (pid: number, start: string | null) =>
      fs.writeFileSync(record(dir), JSON.stringify({ v: 1, version: pkg.version, pid, start, port, token: 'x'.repeat(32), stateDir: dir, configAt: Date.now() }), { mode: 0o600 });
    try {
      for (const [pid, start] of [
        [dead, '1'],
        [process.pid, '1'], // this pid is alive, but it is not the process that wrote the record
      ] as const) {
        write(pid, start);
        const r = await runCairn(['search', 'router', '--state-dir', dir]);
        expect(r.code).toBe(0);
        expect(r.stdout).toBe(expected);
        expect(r.stderr).not.toMatch(VIA_ENGINE);
      }
      // The control: with the right start identity the record is taken (here by the impostor).
      write(process.pid, processStart(process.pid));
      const taken = await runCairn(['search', 'router', '--state-dir', dir]);
      expect(taken.stdout).toBe('no results\n');
      expect(taken.stderr).toMatch(VIA_ENGINE);
    } finally {
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });
});
