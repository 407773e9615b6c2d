/** What the welcome shows and the state-dir switcher offers (no Node imports). */

/** An OpenClaw state dir found on this computer. */
export interface FoundStateDir {
  /** Absolute path. */
  path: string;
  /** Where it was found: the home default (`~/.openclaw`) or OpenClaw's own setting. */
  foundBy: 'home' | 'openclaw-setting';
  /** Sessions listed in its agents' session stores (transcript files when there is no store). */
  sessions: number;
  /** Markdown notes in its workspace (MEMORY.md and memory/…). */
  notes: number;
}

/** A state dir opened before, newest first. */
export interface RecentStateDir {
  path: string;
  /** ISO time it was last opened. */
  openedAt: string;
  /** False when the directory is gone (it is still listed, so a person sees what happened). */
  exists: boolean;
}

export interface WelcomeInfo {
  /** The state dir open now. */
  stateDir: string;
  createdBy: 'cairn' | 'external';
  sessions: number;
  notes: number;
  /** No sessions and no notes but the starter MEMORY.md: the welcome opens instead of an empty list. */
  empty: boolean;
  /** OpenClaw state dirs found on this computer (not the open one). */
  openclaw: FoundStateDir[];
  recent: RecentStateDir[];
  /** False when this engine cannot switch state dirs (a one-shot CLI engine). */
  canSwitch: boolean;
  /** Where "Explore a demo" builds the demo. */
  demoDir: string;
}
