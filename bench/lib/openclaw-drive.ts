/**
 * Driving the real OpenClaw 2026.9.6 (scripts/fetch-test-openclaw.mjs's install) for the
 * benchmarks of bench/openclaw-recall.ts: a scripted OpenAI-wire model in this process that
 * records every request with its arrival time, a fresh OpenClaw state dir pointing at it
 * (optionally with Cairn's plugin loaded from openclaw-plugin/), a Gateway for warm turns,
 * and single turns through `openclaw agent` (via the Gateway, or `--local`: a new process,
 * so a cold plugin). Nothing here is a test: it measures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { contentText, scriptedModel as testScriptedModel } from '../../tests/helpers/openclaw-real';

export { contentText };

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The plugin folder `cairn connect openclaw` loads (plugins.load.paths). */
export const PLUGIN_DIR = path.join(repoRoot, 'openclaw-plugin');
export const CAIRN_BIN = path.join(repoRoot, 'bin', 'cairn.mjs');

/** The wrapper that runs the installed OpenClaw under its Node 24, or a reason it is missing. */
export function openclawCommand(): string {
  const cache = process.env.CAIRN_OPENCLAW_CACHE ?? path.join(repoRoot, 'node_modules', '.cache', 'cairn-openclaw');
  const wrapper = path.join(cache, 'openclaw.sh');
  if (!fs.existsSync(wrapper)) throw new Error(`openclaw is not installed in ${cache}: run node scripts/fetch-test-openclaw.mjs`);
  return wrapper;
}

export interface ChatMessage {
  role: string;
  content: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}
export interface ChatBody {
  messages: ChatMessage[];
  tools?: { function: { name: string } }[];
}
/** One request the scripted model received, with its arrival time (ms since the epoch). */
export interface ModelRequest {
  at: number;
  body: ChatBody;
}

/** What the scripted model answers: a tool call or text. */
export type ModelReply = { tool: string; args: Record<string, unknown> } | { text: string };

/**
 * The scripted model (the tests' own: tests/helpers/openclaw-real.ts): `reply` decides each
 * answer; every request is recorded with its arrival time.
 */
export async function scriptedModel(reply: (body: ChatBody) => ModelReply): Promise<{ baseUrl: string; requests: ModelRequest[]; close: () => Promise<void> }> {
  const requests: ModelRequest[] = [];
  const m = await testScriptedModel(
    (body) => {
      const r = reply(body as ChatBody);
      return 'tool' in r ? { calls: [{ name: r.tool, args: r.args }] } : r;
    },
    (body, at) => requests.push({ at, body: body as ChatBody }),
  );
  return { baseUrl: m.baseUrl, requests, close: m.close };
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export interface OpenClawDir {
  stateDir: string;
  home: string;
  dataDir: string;
  gatewayPort: number;
  token: string;
}

/**
 * A fresh OpenClaw state dir under the temp dir: `files` copied in (a workspace, sessions),
 * openclaw.json with the scripted model, a loopback Gateway, and — with `plugin` — Cairn's
 * plugin loaded from openclaw-plugin/ as `cairn connect openclaw` sets it up.
 */
export async function makeOpenClawDir(o: { baseUrl: string; copy?: { from: string; to: string }[]; plugin: boolean; pluginConfig?: Record<string, unknown>; dataDir?: string }): Promise<OpenClawDir> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-ocbench-'));
  const stateDir = path.join(root, '.openclaw');
  const home = path.join(root, 'home');
  fs.mkdirSync(stateDir);
  fs.mkdirSync(home);
  for (const c of o.copy ?? []) fs.cpSync(c.from, path.join(stateDir, c.to), { recursive: true });
  fs.mkdirSync(path.join(stateDir, 'workspace', 'memory'), { recursive: true });
  const dataDir = o.dataDir ?? path.join(root, 'cairn-data');
  const gatewayPort = await freePort();
  const token = `bench-${process.pid}-${gatewayPort}`;
  const model = { id: 'fake-1', name: 'Fake scripted model', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 64000, maxTokens: 2048 };
  const cfg: Record<string, unknown> = {
    models: { mode: 'merge', providers: { fake: { baseUrl: o.baseUrl, apiKey: 'fake-local-key', api: 'openai-completions', models: [model] } } },
    agents: { defaults: { model: { primary: 'fake/fake-1' }, workspace: path.join(stateDir, 'workspace') } },
    gateway: { mode: 'local', port: gatewayPort, bind: 'loopback', auth: { mode: 'token', token } },
  };
  if (o.plugin) {
    cfg.plugins = {
      load: { paths: [PLUGIN_DIR] },
      entries: {
        cairn: {
          enabled: true,
          hooks: { allowConversationAccess: true },
          config: { stateDir, dataDir, node: process.execPath, bin: CAIRN_BIN, ...(o.pluginConfig ?? {}) },
        },
      },
    };
  }
  fs.writeFileSync(path.join(stateDir, 'openclaw.json'), `${JSON.stringify(cfg, null, 2)}\n`);
  return { stateDir, home, dataDir, gatewayPort, token };
}

/** The environment OpenClaw runs with for `dir`. */
export function openclawEnv(dir: OpenClawDir): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir.home, OPENCLAW_STATE_DIR: dir.stateDir, OPENCLAW_GATEWAY_TOKEN: dir.token, CAIRN_DATA_DIR: dir.dataDir, NO_COLOR: '1' };
}

/** Run `openclaw <args>` to its end: exit code, output, wall time. */
export function runOpenClaw(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 600_000): Promise<{ code: number | null; out: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(openclawCommand(), args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, out, ms: performance.now() - t0 });
    });
  });
}

/** A running Gateway for `dir` (warm turns share its process, so its plugin's bridge). */
export async function startGateway(dir: OpenClawDir): Promise<{ child: ChildProcess; log: () => string; stop: () => Promise<void> }> {
  const child = spawn(openclawCommand(), ['gateway', 'run', '--allow-unconfigured', '--port', String(dir.gatewayPort), '--bind', 'loopback', '--auth', 'token', '--token', dir.token], {
    env: openclawEnv(dir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => (out += c));
  const exited = new Promise<void>((r) => child.on('close', () => r()));
  // Ready when its port accepts a connection (polled: the Gateway prints no fixed line).
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the Gateway exited (${child.exitCode}): ${out.slice(-2000)}`);
    const ok = await new Promise<boolean>((r) => {
      const s = net.connect(dir.gatewayPort, '127.0.0.1', () => {
        s.end();
        r(true);
      });
      s.on('error', () => r(false));
    });
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the Gateway did not listen within 300 s: ${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    child,
    log: () => out,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The `<relevant-memories>` section of a text, or '' when there is none. */
export function relevantSection(text: string): string {
  const m = /<relevant[-_]memories>[\s\S]*?<\/relevant[-_]memories>/i.exec(text);
  return m ? m[0] : '';
}

/** Build (or bring up to date) Cairn's index of `dir` as the plugin's bridge will open it. */
export function cairnIndex(dir: OpenClawDir): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CAIRN_BIN, 'index', '--state-dir', dir.stateDir], { env: { ...process.env, HOME: dir.home, CAIRN_DATA_DIR: dir.dataDir }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`cairn index failed (${code}): ${err.slice(-1500)}`))));
  });
}
