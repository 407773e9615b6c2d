/**
 * A fresh computer for e2e tests of the first run: a temp HOME holding only what the test
 * puts there (an OpenClaw dir copied from the 2026.9.6 fixture), Cairn's data dir inside it,
 * and an engine host (which can switch state dirs) behind a real `cairn serve` server on
 * `~/.cairn`, the state dir the app opens by default.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEngineHost, type EngineHost } from '../../electron/engine/host';
import type { EngineDeps } from '../../electron/engine/core/context';
import { startServer, type RunningServer } from '../../electron/server/server';
import { RENDERER_DIR } from './server';
import os from 'node:os';
import { afterAll } from 'vitest';

const FIXTURE_STATE = path.resolve(__dirname, '..', 'fixtures', 'openclaw-2026.9.6', 'state');

export interface FreshHome {
  home: string;
  /** `<home>/.openclaw` when asked for, else undefined. */
  openclawDir: string | undefined;
  /** `<home>/.cairn`: where the host starts. */
  stateDir: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

const homes: string[] = [];
// Removed after the file's tests (not after each one: a suite's home outlives its first test).
afterAll(() => {
  while (homes.length) fs.rmSync(homes.pop() as string, { recursive: true, force: true });
});

/** A temp HOME, optionally with `~/.openclaw` copied from the OpenClaw 2026.9.6 fixture. */
export function freshHome(opts: { openclaw?: boolean } = {}): FreshHome {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-home-'));
  homes.push(home);
  let openclawDir: string | undefined;
  if (opts.openclaw) {
    openclawDir = path.join(home, '.openclaw');
    fs.cpSync(FIXTURE_STATE, openclawDir, { recursive: true });
    // The fixture was written under /home/user: its config names that home, as this one's would.
    const config = path.join(openclawDir, 'openclaw.json');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replaceAll('/home/user/', `${home}/`));
  }
  const dataDir = path.join(home, '.local', 'state', 'cairn');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CAIRN_DATA_DIR: dataDir, CAIRN_TEST_MODELS_DIR: path.join(home, 'no-test-models') };
  delete env.OPENCLAW_STATE_DIR;
  delete env.CAIRN_STATE_DIR;
  return { home, openclawDir, stateDir: path.join(home, '.cairn'), dataDir, env };
}

export interface HostServed {
  host: EngineHost;
  server: RunningServer;
  close(): Promise<void>;
}

/** Serve an engine host on `home.stateDir` (created as a new Cairn dir) with `home.env`. */
export async function serveHost(home: FreshHome, deps: EngineDeps = {}): Promise<HostServed> {
  const host = createEngineHost({ stateDir: home.stateDir, deps: { env: home.env, ...deps }, background: false });
  const server = await startServer({ dispatcher: host.dispatcher, events: host.events, staticDir: RENDERER_DIR });
  return {
    host,
    server,
    async close() {
      await server.close();
      await host.dispose();
    },
  };
}
