/**
 * Opening the served UI like an app: Chromium (or Chrome) in `--app` mode with its own
 * profile under the state dir; otherwise the caller prints the URL. The window is closed
 * again when the server stops (`close`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge'];

/** The first Chromium-family browser on PATH, or undefined. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = (env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const name of CANDIDATES) {
    for (const d of dirs) {
      const p = path.join(d, name);
      try {
        fs.accessSync(p, fs.constants.X_OK);
        return p;
      } catch {
        // keep looking
      }
    }
  }
  return undefined;
}

export interface OpenResult {
  opened: boolean;
  reason: string;
  /**
   * Close the window this call opened (its whole process group); resolves when the browser
   * has exited. `cairn serve` calls it when it stops, so the window does not outlive the
   * server (it stayed open, dead, after `npm run demo` stopped).
   */
  close?: () => Promise<void>;
}

/** Open `url` in Chromium's app mode. Never throws: says why it did not open. */
export function openInChromiumApp(url: string, profileDir: string, env: NodeJS.ProcessEnv = process.env): OpenResult {
  const bin = findChromium(env);
  if (!bin) return { opened: false, reason: 'no Chromium or Chrome on PATH' };
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { opened: false, reason: 'no display (DISPLAY/WAYLAND_DISPLAY unset)' };
  }
  fs.mkdirSync(profileDir, { recursive: true });
  const args = [
    `--app=${url}`,
    `--user-data-dir=${profileDir}`,
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ];
  // Chromium refuses to run as root without this; only then is it added.
  if (typeof process.getuid === 'function' && process.getuid() === 0) args.push('--no-sandbox');
  try {
    // Detached (its own process group) so a Ctrl+C in the terminal reaches the server first;
    // the server then closes the browser itself.
    const child = spawn(bin, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const close = async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGTERM'); // the group: Chromium's renderer and GPU processes too
        } catch {
          child.kill('SIGTERM');
        }
      }
      await exited;
    };
    return { opened: true, reason: `opened in ${path.basename(bin)} (app mode)`, close };
  } catch (err) {
    return { opened: false, reason: `could not start ${bin}: ${(err as Error).message}` };
  }
}
