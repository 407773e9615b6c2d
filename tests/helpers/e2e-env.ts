/**
 * The usual e2e set-up, registered with vitest's beforeAll/afterAll: a fresh state dir
 * seeded by `seed`, the engine + `cairn serve` on it (with `deps`, e.g. a fake embedder),
 * and Debian's Chromium; everything closed and removed afterwards. Fields are filled in
 * `beforeAll`, so read them inside tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import type { EngineDeps } from '../../electron/engine/core/context';
import { launchChromium } from './browser';
import { serveStateDir, type Served } from './server';

export interface E2eEnv<T> {
  stateDir: string;
  /** What `seed` returned. */
  seeded: T;
  browser: Browser;
  served: Served;
}

export function e2eEnv<T>(prefix: string, seed: (stateDir: string) => T, deps?: EngineDeps): E2eEnv<T> {
  const env = {} as E2eEnv<T>;
  beforeAll(async () => {
    env.stateDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    env.seeded = seed(env.stateDir);
    env.browser = await launchChromium();
    env.served = await serveStateDir(env.stateDir, deps);
  });
  afterAll(async () => {
    await env.served?.close();
    await env.browser?.close();
    if (env.stateDir) fs.rmSync(env.stateDir, { recursive: true, force: true });
  });
  return env;
}
