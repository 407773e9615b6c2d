/**
 * The real OpenClaw Gateway for tests (the install of scripts/fetch-test-openclaw.mjs):
 * `openclaw gateway` on a free loopback port with token auth, started and stopped by pid and
 * awaited on its own "ready" line; `openclaw dashboard --json` for the browser's address; and
 * an OpenClaw dir from the shipped 2026.9.6 fixture with Cairn connected to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectOpenClaw } from '../../electron/engine/openclaw/connect';
import { runOpenClaw } from './openclaw-real';

// Paths from this file's URL (not __dirname, nor openclaw-state.ts, which needs vitest): the
// benchmarks import this module too.
const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE_STATE_DIR = path.join(here, '..', 'fixtures', 'openclaw-2026.9.6', 'state');
/** This Cairn's bin/cairn.mjs (what tests/helpers/cli.ts names CAIRN_BIN). */
export const CAIRN_BIN_PATH = path.resolve(here, '..', '..', 'bin', 'cairn.mjs');

/** A free TCP port on 127.0.0.1 (never any other address). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A connected OpenClaw dir: the fixture's state, Cairn's data dir, and a Node path the test can take away. */
export interface ConnectedDir {
  root: string;
  stateDir: string;
  dataDir: string;
  home: string;
  /** A wrapper script running this Node: remove it for "Cairn's Node is missing". */
  nodeLink: string;
}

/** Copy the fixture into `root`, then `cairn connect openclaw` with this Cairn (bin/cairn.mjs, openclaw-plugin/). */
export async function connectedFixture(root: string): Promise<ConnectedDir> {
  const stateDir = path.join(root, '.openclaw');
  fs.cpSync(FIXTURE_STATE_DIR, stateDir, { recursive: true });
  const dataDir = path.join(root, 'data');
  const home = path.join(root, 'home');
  fs.mkdirSync(dataDir);
  fs.mkdirSync(home);
  const nodeLink = path.join(root, 'node');
  writeNodeLink(nodeLink);
  const pluginDir = path.join(path.dirname(path.dirname(CAIRN_BIN_PATH)), 'openclaw-plugin');
  await connectOpenClaw(stateDir, {}, { env: { CAIRN_DATA_DIR: dataDir }, launch: { node: nodeLink, bin: CAIRN_BIN_PATH, pluginDir, env: {} } });
  return { root, stateDir, dataDir, home, nodeLink };
}

/** (Re)create the Node wrapper. */
export function writeNodeLink(file: string): void {
  fs.writeFileSync(file, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$@"\n`, { mode: 0o755 });
}

/** Set `plugins.entries.cairn.enabled` in the dir's openclaw.json. */
export function setCairnEnabled(stateDir: string, enabled: boolean): void {
  const file = path.join(stateDir, 'openclaw.json');
  const cfg = JSON.parse(fs.readFileSync(file, 'utf8')) as { plugins: { entries: { cairn: { enabled: boolean } } } };
  cfg.plugins.entries.cairn.enabled = enabled;
  fs.writeFileSync(file, `${JSON.stringify(cfg, null, 2)}\n`);
}

export interface RunningGateway {
  port: number;
  token: string;
  /** http://127.0.0.1:<port> */
  base: string;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** The environment the Gateway and its CLI run with for this dir. */
export function gatewayEnv(dir: ConnectedDir, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir.home, OPENCLAW_STATE_DIR: dir.stateDir, NO_COLOR: '1', ...extra };
}

/** Start `openclaw gateway` on loopback with token auth; resolves once it prints that it is ready. */
export async function startGateway(command: string, dir: ConnectedDir, token: string, port?: number): Promise<RunningGateway> {
  const p = port ?? (await freeLoopbackPort());
  const child: ChildProcess = spawn(command, ['gateway', '--port', String(p), '--bind', 'loopback', '--auth', 'token', '--token', token, '--allow-unconfigured'], {
    env: gatewayEnv(dir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const onData = (c: string) => {
      out += c;
      if (/\[gateway\] ready\b/.test(out)) resolve();
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.stderr?.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => reject(new Error(`openclaw gateway exited (${code}) before it was ready:\n${out.slice(-3000)}`)));
  });
  return {
    port: p,
    token,
    base: `http://127.0.0.1:${p}`,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** `openclaw dashboard --json`: the address that opens the authenticated Control UI. */
export async function dashboardUrl(command: string, dir: ConnectedDir, gw: RunningGateway): Promise<string> {
  const r = await runOpenClaw(command, ['dashboard', '--json'], gatewayEnv(dir, { OPENCLAW_GATEWAY_TOKEN: gw.token, OPENCLAW_GATEWAY_PORT: String(gw.port) }));
  const json = JSON.parse(r.out.slice(r.out.indexOf('{'))) as { url?: string; browserUrl?: string };
  const url = json.browserUrl ?? json.url;
  if (r.code !== 0 || !url) throw new Error(`openclaw dashboard --json failed (${r.code}): ${r.out.slice(-2000)}`);
  return url;
}
