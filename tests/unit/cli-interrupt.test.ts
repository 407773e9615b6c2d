/**
 * Ctrl+C on `cairn compact` and `cairn index` cancels through the AbortSignal: the real
 * executable runs as a child, its model (or embedder) is a local HTTP server that never
 * answers, and SIGINT is sent when that request arrives — an event, not a timer. The child
 * must exit by itself (code 130, "cancelled"), leaving the transcript byte-identical and the
 * old index in place, with no temp or lock files behind.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CAIRN_BIN, runCairn } from '../helpers/cli';
import { copyFixture, FIXTURE_SESSION_ID as SID } from '../helpers/fixtures';
import { tmpDir, writeTree } from '../helpers/tmp';

/**
 * A server that holds requests open; `arrived` resolves on the first one held. The first
 * `answer` requests get `reply` instead (an embedder's dimension probe at start-up).
 */
async function hangingServer(o: { answer?: number; reply?: unknown } = {}): Promise<{ url: string; arrived: Promise<void>; close(): Promise<void> }> {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let answered = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    if (answered < (o.answer ?? 0)) {
      answered++;
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(o.reply)));
      return;
    }
    arrive();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  servers.push(server);
  return { url: `http://127.0.0.1:${port}`, arrived, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
const servers: http.Server[] = [];
afterEach(() => {
  while (servers.length) {
    const s = servers.pop()!;
    s.closeAllConnections();
    s.close();
  }
});

/** Start the real executable, send SIGINT once `ready` resolves, collect how it ended. */
function runUntilInterrupted(args: string[], ready: Promise<void>, env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CAIRN_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    void ready.then(() => child.kill('SIGINT'));
  });
}

const leftovers = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith('.tmp') || n.endsWith('lock') || n.includes('.tmp-'));

describe('Ctrl+C on long commands', () => {
  it('`cairn compact` is cancelled while the model is thinking; the transcript is left as it was', async () => {
    const model = await hangingServer();
    const { stateDir, transcript } = copyFixture({ writable: true });
    const config = path.join(stateDir, 'cairn.json');
    fs.writeFileSync(config, JSON.stringify({ cairn: { llm: { provider: 'openai', baseUrl: model.url, model: 'm', contextWindow: 8192, apiKey: 'k' } } }));
    const before = fs.readFileSync(transcript);
    const sessionsJson = fs.readFileSync(path.join(path.dirname(transcript), 'sessions.json'));
    const r = await runUntilInterrupted(['compact', SID, '--all', '--state-dir', stateDir], model.arrived);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('compaction cancelled; nothing was changed');
    expect(fs.readFileSync(transcript).equals(before)).toBe(true);
    expect(fs.readFileSync(path.join(path.dirname(transcript), 'sessions.json')).equals(sessionsJson)).toBe(true);
    expect(leftovers(path.dirname(transcript))).toEqual([]);
    expect(fs.readdirSync(path.dirname(transcript)).filter((n) => n.includes('.checkpoint.'))).toEqual([]);
  }, 60_000);

  it('`cairn index --force` is cancelled while embedding; the old index stays and no temp file is left', async () => {
    const root = tmpDir();
    // A home of its own: Cairn's data dir for a state dir it did not create lives there.
    const env = { HOME: path.join(root, 'home'), CAIRN_DATA_DIR: path.join(root, 'home', 'cairn-data') };
    const dir = writeTree(path.join(root, 'state'), {
      'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } }),
      'workspace/MEMORY.md': '# Long-term\n\nPrefers dark mode.\n',
      'workspace/memory/2025-03-01.md': '# Deploy\n\nDeployed commit a1b2c3d.\n',
    });
    expect((await runCairn(['index', '--state-dir', dir], { env })).code).toBe(0);
    const indexFile = (fs.readdirSync(root, { recursive: true }) as string[]).map((n) => path.join(root, n)).find((p) => p.endsWith(`${path.sep}main.sqlite`));
    expect(indexFile).toBeDefined();
    const embedder = await hangingServer({ answer: 1, reply: { object: 'list', data: [{ object: 'embedding', index: 0, embedding: [0.6, 0.8, 0] }], model: 'e' } });
    fs.writeFileSync(
      path.join(dir, 'cairn.json'),
      JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'openai', model: 'e', remote: { baseUrl: embedder.url, apiKey: 'k' } } } } }),
    );
    const r = await runUntilInterrupted(['index', '--force', '--state-dir', dir], embedder.arrived, env);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toContain('indexing cancelled; nothing was changed');
    expect(leftovers(path.dirname(indexFile!))).toEqual([]);
    // The old keyword index still answers.
    fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } }));
    const found = await runCairn(['search', 'a1b2c3d', '--json', '--state-dir', dir], { env });
    expect(found.stdout).toContain('memory/2025-03-01.md');
  }, 60_000);
});
