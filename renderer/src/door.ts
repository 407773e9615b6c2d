/**
 * Which door this window is behind: the desktop app (IPC), `cairn serve` (HTTP), or the tab in
 * OpenClaw's Control UI (read-only GET under the route's base path; the plugin's page says so
 * with `<meta name="cairn-door" content="tab">`). One renderer for all three: a page asks
 * `DOOR` (or `canWrite`) and hides what its door cannot do, never shows a second UI.
 */
import { TAB_READ_ONLY_NOTE } from '../../shared/tab-door';

export type Door = 'app' | 'serve' | 'tab';

function detect(): Door {
  if (typeof window === 'undefined') return 'serve';
  if (window.cairnBridge) return 'app';
  return document.querySelector('meta[name="cairn-door"]')?.getAttribute('content') === 'tab' ? 'tab' : 'serve';
}

/** The door, fixed for the window's life. */
export const DOOR: Door = detect();

/** Whether this door writes at all (transcripts, memory, config, models). */
export const canWrite: boolean = DOOR !== 'tab';

/** What the tab says where an action would write. */
export const READ_ONLY_NOTE = TAB_READ_ONLY_NOTE;

/** The Control UI's theme, as it posts it to the tab's frame (`openclaw:widget-theme`). */
export function onHostTheme(listener: (mode: 'light' | 'dark') => void): void {
  if (DOOR !== 'tab') return;
  window.addEventListener('message', (e: MessageEvent) => {
    if (e.source !== window.parent) return;
    const d = e.data as { type?: unknown; mode?: unknown } | null;
    if (d?.type === 'openclaw:widget-theme' && (d.mode === 'light' || d.mode === 'dark')) listener(d.mode);
  });
}

/**
 * Ask the Control UI around the tab to open an OpenClaw session (its `openclaw-plugin-session-open`
 * message: the session key only; the host checks it and navigates). No-op outside the tab.
 */
export function openInOpenClaw(sessionKey: string): void {
  if (DOOR !== 'tab') return;
  window.parent.postMessage({ type: 'openclaw-plugin-session-open', sessionKey }, window.location.origin);
}
