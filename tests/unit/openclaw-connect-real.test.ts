/**
 * `cairn connect openclaw` against the real OpenClaw 2026.9.6 (installed by
 * scripts/fetch-test-openclaw.mjs): connect a temp OpenClaw dir, then a real `openclaw agent
 * --local` turn with a scripted local model (an OpenAI-wire server in this process). The
 * model is offered Cairn's search directly and not OpenClaw's built-in memory_search; its
 * call reaches Cairn, and its next request carries Cairn's result (the citation). Connect
 * changed no file of the OpenClaw dir but openclaw.json, and Cairn wrote none there. A second
 * test connects with the real `openclaw` CLI on PATH (`openclaw config patch`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../electron/engine/openclaw/backup';
import { runCairn } from '../helpers/cli';
import { OC2026_STATE_DIR, treeOf } from '../helpers/openclaw-state';
import { realOpenClaw } from '../helpers/openclaw-real';
import { tmpDir } from '../helpers/tmp';

const openclaw = realOpenClaw();

interface ChatBody {
  messages: { role: string; content: unknown; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'fake-1', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/**
 * The scripted model: a request that offers Cairn's search and has no tool result yet gets a
 * call of it; any other request gets a short text answer. Every request is recorded.
 */
async function scriptedModel(): Promise<{ baseUrl: string; requests: ChatBody[]; close: () => Promise<void> }> {
  const requests: ChatBody[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
      const body = JSON.parse(raw) as ChatBody;
      requests.push(body);
      const search = body.tools?.map((t) => t.function.name).find((n) => n === 'cairn__memory_search');
      const answered = body.messages.some((m) => m.role === 'tool');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (search && !answered) {
        const call = { index: 0, id: 'call_cairn_1', type: 'function', function: { name: search, arguments: JSON.stringify({ query: 'Lisbon trip codeword' }) } };
        res.write(chunk({ role: 'assistant', content: null, tool_calls: [call] }));
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(chunk({ role: 'assistant', content: 'The codeword is saffron-kite.' }));
        res.write(chunk({}, 'stop'));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let closeModel: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeModel?.();
  closeModel = undefined;
});

/** Run the real openclaw to its end; resolves with its exit code and output. */
function runOpenClaw(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // A backstop, not a timing assertion: a hung OpenClaw must not outlive the test.
    const kill = setTimeout(() => child.kill('SIGKILL'), 840_000);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, out });
    });
  });
}

/** Files that differ between two trees (added, removed or changed). */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).sort();
}

describe.skipIf(!openclaw.command)(`cairn connect openclaw with the real OpenClaw 2026.9.6${openclaw.skip}`, () => {
  it("makes the agent's recall go to Cairn, changing only openclaw.json", { timeout: 900_000 }, async () => {
    const command = openclaw.command as string;
    const model = await scriptedModel();
    closeModel = model.close;
    // A fresh OpenClaw dir: the fixture's config and memory files (its session store names
    // another home's paths, which OpenClaw would ask to repair).
    const stateDir = path.join(tmpDir('cairn-ocreal-'), '.openclaw');
    fs.mkdirSync(stateDir);
    fs.cpSync(path.join(OC2026_STATE_DIR, 'workspace'), path.join(stateDir, 'workspace'), { recursive: true });
    fs.copyFileSync(path.join(OC2026_STATE_DIR, 'openclaw.json'), path.join(stateDir, 'openclaw.json'));
    const oc = { stateDir, dataDir: tmpDir('cairn-data-'), tree: () => treeOf(stateDir) };
    const home = tmpDir('cairn-ochome-');
    // The dir as its user has it: OpenClaw's config pointing at this run's model and workspace.
    const cfgFile = path.join(oc.stateDir, 'openclaw.json');
    const cfg = JSON.parse(fs.readFileSync(cfgFile, 'utf8')) as { models: { providers: { fake: { baseUrl: string } } }; agents: { defaults: { workspace: string } } };
    cfg.models.providers.fake.baseUrl = model.baseUrl;
    cfg.agents.defaults.workspace = path.join(oc.stateDir, 'workspace');
    fs.writeFileSync(cfgFile, `${JSON.stringify(cfg, null, 2)}\n`);

    const before = oc.tree();
    // No openclaw on PATH: connect takes its own comment-keeping edit (the file is plain JSON anyway).
    const env = { PATH: path.dirname(process.execPath), HOME: home, CAIRN_DATA_DIR: oc.dataDir };
    const dry = await runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir, '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(oc.tree()).toEqual(before);
    const res = await runCairn(['connect', 'openclaw', '--state-dir', oc.stateDir, '--yes'], { env });
    expect(res.stderr).toContain('Connected');
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(dry.stdout);
    expect(changed(before, oc.tree())).toEqual(['openclaw.json']);
    const doctor = await runCairn(['doctor', '--json', '--state-dir', oc.stateDir], { env });
    const check = (JSON.parse(doctor.stdout) as { checks: { id: string; status: string }[] }).checks.find((c) => c.id === 'openclaw-connection');
    expect(check?.status).toBe('ok');

    const connected = oc.tree();
    const ocEnv = { PATH: process.env.PATH, HOME: home, OPENCLAW_STATE_DIR: oc.stateDir, NO_COLOR: '1' };
    const turn = await runOpenClaw(command, ['agent', '--local', '--session-id', 'cairn-connect', '--message', 'What was the Lisbon trip codeword?'], ocEnv);
    expect(turn.code, turn.out.slice(-3000)).toBe(0);

    const first = model.requests[0];
    const offered = first?.tools?.map((t) => t.function.name) ?? [];
    expect(offered).toContain('cairn__memory_search');
    expect(offered).not.toContain('memory_search');
    expect(offered).not.toContain('memory_get');
    const next = model.requests.find((r) => r.messages.some((m) => m.role === 'tool'));
    // OpenClaw renames tool call ids (call_cairn_1 → call1): the one tool result of the turn.
    const text = JSON.stringify(next?.messages.filter((m) => m.role === 'tool').map((m) => m.content) ?? []);
    expect(text).toContain('saffron-kite');
    expect(text).toMatch(/memory\/2026-12-01\.md#L\d+/);
    expect(turn.out).toContain('saffron-kite');

    // OpenClaw wrote its session; the memory files Cairn searched are as they were.
    // (The whole dir holds OpenClaw's own stores and links by now: the memory files are compared.)
    const memoryFiles = [...connected.keys()].filter((k) => (k.startsWith('workspace/memory/') && !k.endsWith('/')) || k === 'workspace/MEMORY.md');
    expect(memoryFiles.length).toBeGreaterThan(1);
    for (const f of memoryFiles) expect(sha256(fs.readFileSync(path.join(oc.stateDir, f), 'utf8')), f).toBe(connected.get(f));
    expect(fs.readdirSync(path.join(oc.dataDir, 'state-dirs')).length).toBe(1);
  });

  it('writes through OpenClaw\'s own `openclaw config patch` when that CLI is on PATH', { timeout: 600_000 }, async () => {
    const stateDir = path.join(tmpDir('cairn-occli-'), '.openclaw');
    fs.mkdirSync(stateDir);
    fs.copyFileSync(path.join(OC2026_STATE_DIR, 'openclaw.json'), path.join(stateDir, 'openclaw.json'));
    const bin = tmpDir('cairn-ocbin-');
    fs.symlinkSync(openclaw.command as string, path.join(bin, 'openclaw'));
    const env = { PATH: `${bin}${path.delimiter}${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`, HOME: tmpDir('cairn-ochome-'), CAIRN_DATA_DIR: tmpDir('cairn-data-') };
    const res = await runCairn(['connect', 'openclaw', '--state-dir', stateDir, '--yes'], { env, timeoutMs: 540_000 });
    expect(res.stderr).toContain(`with ${path.join(bin, 'openclaw')} config patch`);
    expect(res.code).toBe(0);
    const cfg = JSON.parse(fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8')) as { mcp: { servers: { cairn: { command: string } } }; tools: { deny: string[]; toolSearch: boolean } };
    expect(cfg.mcp.servers.cairn.command).toBe(process.execPath);
    expect(cfg.tools).toEqual({ deny: ['memory_search', 'memory_get'], toolSearch: false });
    expect(res.stdout).toContain('+    "toolSearch": false');
  });
});
