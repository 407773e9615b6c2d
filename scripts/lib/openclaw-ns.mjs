/**
 * Run the real OpenClaw (scripts/fetch-test-openclaw.mjs's wrapper) as if its home were
 * `/home/user`: each run gets its own mount namespace (`unshare -rm`) where a temp folder is
 * bound over `/home`, so every path OpenClaw writes — including the ones it hashes into
 * plugin-state keys (sha256 of the workspace path) — is the neutral `/home/user/.openclaw/…`
 * and the fixture needs no path rewriting. The clock (scripts/lib/fake-clock.mjs) is set per
 * run with FAKE_CLOCK_START. Used by make-openclaw-dreaming-fixture.mjs.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// Imported for its name only: the clock moves only where CLOCK_ENV is set (OpenClaw's process).
import { CLOCK_ENV } from './fake-clock.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const clockModule = path.join(here, 'fake-clock.mjs');

/** Whether this machine lets an unprivileged process make a user+mount namespace. */
export function canUnshare() {
  const r = spawnSync('unshare', ['-rm', 'true'], { stdio: 'ignore' });
  return r.status === 0;
}

/** The argv that runs `command args…` with `homeRoot` bound over /home. */
function wrapped(homeRoot, command, args) {
  const q = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;
  const script = `mount --bind ${q(homeRoot)} /home && exec ${[command, ...args].map(q).join(' ')}`;
  return ['unshare', ['-rm', 'sh', '-c', script]];
}

/** The environment of an OpenClaw run at simulated time `clock` (ISO; undefined: the real time). */
export function openclawEnv(clock, extra = {}) {
  return {
    PATH: process.env.PATH,
    HOME: '/home/user',
    OPENCLAW_STATE_DIR: '/home/user/.openclaw',
    TZ: 'UTC',
    NO_COLOR: '1',
    // No clock given: the real one (the gateway; see make-openclaw-dreaming-fixture.mjs).
    ...(clock ? { NODE_OPTIONS: `--import=${clockModule}`, [CLOCK_ENV]: clock } : {}),
    ...extra,
  };
}

/** Run openclaw to its end; resolves with exit code and output (stdout, stderr). */
export function runOpenClaw({ command, homeRoot, clock, args, env = {}, timeoutMs = 600_000 }) {
  const [bin, argv] = wrapped(homeRoot, command, args);
  return new Promise((resolve, reject) => {
    const child = spawn(bin, argv, { env: openclawEnv(clock, env), stdio: ['ignore', 'pipe', 'pipe'] });
    const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Start a long-running openclaw (the gateway); returns the child and a stop(). */
export function startOpenClaw({ command, homeRoot, clock, args, env = {}, onOutput }) {
  const [bin, argv] = wrapped(homeRoot, command, args);
  const child = spawn(bin, argv, { env: openclawEnv(clock, env), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8').on('data', (c) => onOutput?.(c));
  child.stderr.setEncoding('utf8').on('data', (c) => onOutput?.(c));
  const exited = new Promise((r) => child.on('close', r));
  return {
    child,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
