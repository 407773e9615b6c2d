/**
 * The window opens at a size that fits the screen and then where it was left: the Electron
 * window's bounds (electron/main/window-bounds.ts) and the Chromium app window's size under
 * `cairn serve --open` (electron/server/window-size.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { boundsTracker, defaultBounds, fitBounds, initialBounds, type Rect } from '../../electron/main/window-bounds';
import { parseScreenSize, windowFor, windowSizeArgs, DEFAULT_WINDOW } from '../../electron/server/window-size';
import { tmpDir } from '../helpers/tmp';

const LAPTOP: Rect = { x: 0, y: 0, width: 1440, height: 860 };
const SMALL: Rect = { x: 0, y: 25, width: 1024, height: 700 };

describe('Electron window bounds', () => {
  it('first start: most of the work area, never larger than it, centred', () => {
    const b = defaultBounds(LAPTOP);
    expect(b.width).toBeGreaterThan(1024);
    expect(b.width).toBeLessThanOrEqual(LAPTOP.width);
    expect(b.height).toBeLessThanOrEqual(LAPTOP.height);
    expect(b.x * 2 + b.width).toBe(LAPTOP.width);
    const s = defaultBounds(SMALL);
    expect(s.y).toBeGreaterThanOrEqual(SMALL.y);
    expect(s.y + s.height).toBeLessThanOrEqual(SMALL.y + SMALL.height);
  });

  it('later starts: the saved bounds, shrunk to the screen; off every screen or damaged: the default', () => {
    expect(fitBounds({ x: 40, y: 30, width: 900, height: 600 }, LAPTOP, [LAPTOP])).toEqual({ x: 40, y: 30, width: 900, height: 600 });
    expect(fitBounds({ x: 0, y: 25, width: 2400, height: 1400 }, SMALL, [SMALL])).toEqual({ x: 0, y: 25, width: 1024, height: 700 });
    // Left on a second monitor that is gone now.
    expect(fitBounds({ x: 3000, y: 100, width: 900, height: 600 }, LAPTOP, [LAPTOP])).toEqual(defaultBounds(LAPTOP));
    expect(fitBounds({ x: 'a' }, LAPTOP, [LAPTOP])).toEqual(defaultBounds(LAPTOP));
  });

  it('saves the bounds on move, resize and close, and reads them at the next start', () => {
    const file = path.join(tmpDir(), 'data', 'window.json');
    expect(initialBounds(file, LAPTOP, [LAPTOP])).toEqual(defaultBounds(LAPTOP));
    const listeners = new Map<string, () => void>();
    let bounds: Rect = { x: 100, y: 80, width: 1000, height: 700 };
    boundsTracker({ getNormalBounds: () => bounds, on: (e, l) => listeners.set(e, l) }, file);
    listeners.get('resized')?.();
    expect(initialBounds(file, LAPTOP, [LAPTOP])).toEqual(bounds);
    bounds = { x: 120, y: 90, width: 1100, height: 720 };
    listeners.get('close')?.();
    expect(initialBounds(file, LAPTOP, [LAPTOP])).toEqual(bounds);
  });
});

describe('Chromium app window size', () => {
  it('reads the screen from xrandr or xdpyinfo output', () => {
    expect(parseScreenSize('Screen 0: minimum 8 x 8, current 1440 x 900, maximum 32767 x 32767\n')).toEqual({ width: 1440, height: 900 });
    expect(parseScreenSize('screen #0:\n  dimensions:    2560x1440 pixels (677x381 millimeters)\n')).toEqual({ width: 2560, height: 1440 });
    expect(parseScreenSize('garbage')).toBeUndefined();
  });

  it('a 1440 px screen gets a window wider than 1024 px that still fits it', () => {
    const w = windowFor({ width: 1440, height: 900 });
    expect(w.width).toBeGreaterThan(1024);
    expect(w.width).toBeLessThanOrEqual(1440);
    expect(w.height).toBeLessThanOrEqual(900);
  });

  it('a new profile gets --window-size (the default without a display); a used one keeps the bounds Chromium saved', () => {
    const profile = tmpDir();
    expect(windowSizeArgs(profile, { PATH: process.env.PATH })).toEqual([`--window-size=${DEFAULT_WINDOW.width},${DEFAULT_WINDOW.height}`]);
    fs.mkdirSync(path.join(profile, 'Default'), { recursive: true });
    fs.writeFileSync(path.join(profile, 'Default', 'Preferences'), '{}');
    expect(windowSizeArgs(profile, { PATH: process.env.PATH })).toEqual([]);
  });
});
