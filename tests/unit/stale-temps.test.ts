/**
 * Leftovers of killed writers are cleaned before the next write — and only Cairn's own,
 * only when their writer is gone: a reindex SIGKILLed mid-rebuild (its `main.sqlite.tmp-*`
 * files), a compaction or sessions.json write killed mid-copy (`.<name>.<pid>.<hex>.tmp`).
 * A temp of a process that is still alive is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAIRN_BIN, runCairn } from '../helpers/cli';
import { copyFixture, FIXTURE_SESSION_ID as SID } from '../helpers/fixtures';
import { tmpDir, writeTree } from '../helpers/tmp';

const children: ChildProcess[] = [];
const servers: http.Server[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

/** A real process that creates `name` (PID replaced by its own pid) in `dir` and waits. */
async function tempWriter(dir: string, name: string): Promise<{ child: ChildProcess; file: string }> {
  const script = "const fs=require('fs');const p=require('path').join(process.argv[1],process.argv[2].replace('PID',process.pid));fs.writeFileSync(p,'partial');console.log(p);setInterval(()=>{},1000)";
  const child = spawn(process.execPath, ['-e', script, dir, name], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const file = await new Promise<string>((resolve) => child.stdout!.setEncoding('utf8').once('data', (s: string) => resolve(s.trim())));
  return { child, file };
}

async function kill(child: ChildProcess): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

describe('stale temp files', () => {
  it('a reindex SIGKILLed mid-rebuild leaves main.sqlite.tmp-*; the next sync removes it', async () => {
    const root = tmpDir();
    const env = { HOME: path.join(root, 'home'), CAIRN_DATA_DIR: path.join(root, 'home', 'cairn-data') };
    const none = JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } });
    const dir = writeTree(path.join(root, 'state'), { 'cairn.json': none, 'workspace/MEMORY.md': '# M\n\nPrefers dark mode.\n' });
    expect((await runCairn(['index', '--state-dir', dir], { env })).code).toBe(0);
    const indexFile = (fs.readdirSync(root, { recursive: true }) as string[]).map((n) => path.join(root, n)).find((p) => p.endsWith(`${path.sep}main.sqlite`))!;
    // An embedder that answers the start-up probe and then holds the rebuild's request: the
    // rebuild's temp file exists from then on, and that is when it is killed.
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    let answered = false;
    const server = http.createServer((req, res) => {
      req.resume();
      if (answered) return arrive();
      answered = true;
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ index: 0, embedding: [0.6, 0.8, 0] }] })));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'openai', model: 'e', remote: { baseUrl: url, apiKey: 'k' } } } } }));
    const child = spawn(process.execPath, [CAIRN_BIN, 'index', '--force', '--state-dir', dir], { stdio: 'ignore', env: { ...process.env, ...env } });
    children.push(child);
    await arrived;
    await kill(child);
    const temps = () => fs.readdirSync(path.dirname(indexFile)).filter((n) => n.startsWith('main.sqlite.tmp-'));
    expect(temps().length).toBeGreaterThan(0);

    fs.writeFileSync(path.join(dir, 'cairn.json'), none);
    expect((await runCairn(['index', '--state-dir', dir], { env })).code).toBe(0);
    expect(temps()).toEqual([]);
  }, 60_000);

  it('a compaction removes temps of killed writers in the sessions dir and keeps a live writer\'s', async () => {
    const { stateDir, sessionsDir } = copyFixture({ writable: true });
    const dead = await tempWriter(sessionsDir, `.${SID}.jsonl.PID.0badc0de.tmp`);
    const deadIndex = await tempWriter(sessionsDir, '.sessions.json.PID.0badc0de.tmp');
    const deadOther = await tempWriter(sessionsDir, '.another-session.jsonl.PID.0badc0de.tmp');
    const live = await tempWriter(sessionsDir, `.${SID}.jsonl.PID.0abcdef0.tmp`);
    for (const w of [dead, deadIndex, deadOther]) await kill(w.child);
    const r = await runCairn(['compact', SID, '--all', '--state-dir', stateDir]);
    expect(r.code).toBe(0);
    expect(fs.existsSync(dead.file)).toBe(false);
    expect(fs.existsSync(deadIndex.file)).toBe(false);
    expect(fs.existsSync(deadOther.file)).toBe(false);
    expect(fs.existsSync(live.file)).toBe(true);
  }, 60_000);
});
