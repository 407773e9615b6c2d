/**
 * Opening the served UI like an app: Chromium (or Chrome) in `--app` mode with its own
 * profile under the state dir; otherwise the caller prints the URL. The window is closed
 * again when the server stops (`close`). The token never goes on the browser's command line
 * (any local user reads /proc/<pid>/cmdline): the browser gets a private page that forwards
 * to the tokened URL (open-page.ts). `--no-sandbox` only as root, where Chromium needs it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeOpenPage } from './open-page';
import { windowSizeArgs } from './window-size';

const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge'];

/**
 * The browser to open: `$CAIRN_BROWSER` (an executable path) when set, else the first
 * Chromium-family browser on PATH, or undefined.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CAIRN_BROWSER) return env.CAIRN_BROWSER;
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

/**
 * Open `url` (it may carry the token) in Chromium's app mode, through a private page that
 * forwards to it. Never throws: says why it did not open.
 */
export function openInChromiumApp(url: string, profileDir: string, env: NodeJS.ProcessEnv = process.env): OpenResult {
  const bin = findChromium(env);
  if (!bin) return { opened: false, reason: 'no Chromium or Chrome on PATH' };
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    return { opened: false, reason: 'no display (DISPLAY/WAYLAND_DISPLAY unset)' };
  }
  const size = windowSizeArgs(profileDir, env);
  fs.mkdirSync(profileDir, { recursive: true });
  let page: ReturnType<typeof writeOpenPage>;
  try {
    page = writeOpenPage(url, env);
  } catch (err) {
    return { opened: false, reason: `could not write the private page to open: ${(err as Error).message}` };
  }
  const args = [
    ...size,
    `--app=${page.href}`,
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
    child.unref();
    // A spawn that fails (the executable vanished) emits 'error' and never 'exit'.
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    const close = async () => {
      if (child.exitCode === null && child.signalCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGTERM'); // the group: Chromium's renderer and GPU processes too
        } catch {
          child.kill('SIGTERM');
        }
      }
      await exited;
      page.remove();
    };
    return { opened: true, reason: `opened in ${path.basename(bin)} (app mode)`, close };
  } catch (err) {
    page.remove();
    return { opened: false, reason: `could not start ${bin}: ${(err as Error).message}` };
  }
}
