/**
 * The app window's size and place: the first time, most of the screen's work area (never
 * larger than it, so it fits a small laptop and is not a small box on a big screen); then the
 * bounds the person left it at, kept in Cairn's data dir (`window.json`), as long as they
 * still fall on a screen (a monitor unplugged since puts it back on the primary one).
 * No Electron import: the main process passes in the screen's numbers and the window.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../engine/util/atomic-write';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The first window: 90% of the work area, at most 1600×1000, centred. */
export function defaultBounds(area: Rect): Rect {
  const width = Math.round(Math.min(area.width * 0.9, 1600));
  const height = Math.round(Math.min(area.height * 0.9, 1000));
  return { x: area.x + Math.round((area.width - width) / 2), y: area.y + Math.round((area.height - height) / 2), width, height };
}

function isRect(v: unknown): v is Rect {
  const r = v as Partial<Rect> | null;
  return !!r && [r.x, r.y, r.width, r.height].every((n) => typeof n === 'number' && Number.isFinite(n)) && (r.width ?? 0) > 0 && (r.height ?? 0) > 0;
}

/** Whether at least a 100×50 corner of `r`'s title bar lies on one of `areas`. */
function onSomeScreen(r: Rect, areas: Rect[]): boolean {
  return areas.some((a) => r.x + 100 <= a.x + a.width && r.x + r.width - 100 >= a.x && r.y >= a.y - 10 && r.y + 50 <= a.y + a.height);
}

/** The bounds to open with: the saved ones when they fit a screen (shrunk to it), else the default. */
export function fitBounds(saved: unknown, primary: Rect, areas: Rect[]): Rect {
  if (!isRect(saved) || !onSomeScreen(saved, areas.length ? areas : [primary])) return defaultBounds(primary);
  const area = areas.find((a) => saved.x >= a.x - 10 && saved.x < a.x + a.width) ?? primary;
  return { ...saved, width: Math.min(saved.width, area.width), height: Math.min(saved.height, area.height) };
}

/** Read `file` (missing or damaged: the default) and fit it to the screens. */
export function initialBounds(file: string, primary: Rect, areas: Rect[]): Rect {
  let saved: unknown;
  try {
    saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    saved = undefined;
  }
  return fitBounds(saved, primary, areas);
}

/** The part of a BrowserWindow the tracker uses. */
export interface TrackedWindow {
  getNormalBounds(): Rect;
  on(event: 'resized' | 'moved' | 'close', listener: () => void): unknown;
}

/** Save the window's (unmaximised) bounds to `file` after a move or resize and on close. */
export function boundsTracker(win: TrackedWindow, file: string): void {
  const save = () => {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      writeFileAtomicSync(file, `${JSON.stringify(win.getNormalBounds())}\n`);
    } catch {
      // not saved: the next start uses the default size
    }
  };
  win.on('resized', save);
  win.on('moved', save);
  win.on('close', save);
}
