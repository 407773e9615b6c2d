/**
 * The size of the Chromium app window `cairn serve --open` opens: from the screen (under X,
 * `xrandr` or `xdpyinfo` when installed), else a size that fits most laptops. Only for the
 * first start with a profile: afterwards Chromium restores the bounds it saved in the profile,
 * so the window opens where the person left it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Size {
  width: number;
  height: number;
}

/** Used when the screen cannot be read. */
export const DEFAULT_WINDOW: Size = { width: 1280, height: 860 };

/** The screen size in `xrandr --current` output ("current 1920 x 1080") or xdpyinfo's ("dimensions: 1920x1080 pixels"). */
export function parseScreenSize(output: string): Size | undefined {
  const m = /current (\d+) x (\d+)/.exec(output) ?? /dimensions:\s+(\d+)x(\d+) pixels/.exec(output);
  if (!m) return undefined;
  const size = { width: Number(m[1]), height: Number(m[2]) };
  return size.width > 0 && size.height > 0 ? size : undefined;
}

/** 90% of the screen (less the panels' share), at most 1600×1000. */
export function windowFor(screen: Size): Size {
  return { width: Math.round(Math.min(screen.width * 0.9, 1600)), height: Math.round(Math.min(screen.height * 0.85, 1000)) };
}

/** The screen under X, read with xrandr or xdpyinfo (absent tools or no display: undefined). */
export function readScreenSize(env: NodeJS.ProcessEnv): Size | undefined {
  if (!env.DISPLAY) return undefined;
  for (const [cmd, args] of [['xrandr', ['--current']], ['xdpyinfo', []]] as const) {
    const r = spawnSync(cmd, [...args], { encoding: 'utf8', env, timeout: 3000 });
    if (r.status === 0) {
      const size = parseScreenSize(r.stdout);
      if (size) return size;
    }
  }
  return undefined;
}

/** `--window-size=W,H` for a new profile; nothing once Chromium has saved its own bounds there. */
export function windowSizeArgs(profileDir: string, env: NodeJS.ProcessEnv): string[] {
  if (fs.existsSync(path.join(profileDir, 'Default', 'Preferences'))) return [];
  const screen = readScreenSize(env);
  const size = screen ? windowFor(screen) : DEFAULT_WINDOW;
  return [`--window-size=${size.width},${size.height}`];
}
