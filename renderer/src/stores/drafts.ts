/**
 * Unsaved memory edits, one draft per file, kept until the user saves or discards it. They
 * live outside the memory page (which unmounts when another page is opened) and in
 * sessionStorage, so leaving the page, opening another file or reloading the window never
 * throws an edit away; closing the window with a draft asks first (beforeunload).
 */
import { create } from 'zustand';

/** One unsaved edit. */
export interface Draft {
  text: string;
  /** The mtime of the version the edit started from: a different mtime on disk is a conflict. */
  baseMtime: number;
  /** When the draft was last changed (ms since epoch), shown when it is restored. */
  at: number;
}

const KEY = 'cairn.memory.drafts';

function load(): Record<string, Draft> {
  try {
    const raw = sessionStorage.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Draft>) : {};
  } catch {
    // A broken entry must not stop the app: start without drafts.
    return {};
  }
}

// Writing sessionStorage on every keystroke would serialise a 6 MB note each time: writes
// are batched (250 ms) and flushed when the window unloads.
let pending: Record<string, Draft> | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

function persist(drafts: Record<string, Draft>): void {
  pending = drafts;
  timer ??= setTimeout(flush, 250);
}

function flush(): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  const drafts = pending;
  pending = undefined;
  if (!drafts) return;
  try {
    if (Object.keys(drafts).length) sessionStorage.setItem(KEY, JSON.stringify(drafts));
    else sessionStorage.removeItem(KEY);
  } catch {
    // Storage full or unavailable: the in-memory copy still survives navigation.
  }
}

interface DraftsState {
  drafts: Record<string, Draft>;
  /** Keep `text` as the draft of `path` (edited from the version with `baseMtime`). */
  put(path: string, text: string, baseMtime: number): void;
  /** Forget the draft of `path` (saved or discarded). */
  drop(path: string): void;
}

/** The drafts store; `Object.keys(drafts)` are the files with unsaved edits. */
export const useDrafts = create<DraftsState>((set, get) => ({
  drafts: load(),
  put(path, text, baseMtime) {
    const drafts = { ...get().drafts, [path]: { text, baseMtime, at: Date.now() } };
    persist(drafts);
    set({ drafts });
  },
  drop(path) {
    if (!(path in get().drafts)) return;
    const drafts = { ...get().drafts };
    delete drafts[path];
    persist(drafts);
    set({ drafts });
  },
}));

// Closing or reloading the window with an unsaved edit: the browser asks first. (A reload
// would restore it from sessionStorage, but closing the window would not.)
window.addEventListener('pagehide', flush);
window.addEventListener('beforeunload', (e) => {
  flush();
  if (Object.keys(useDrafts.getState().drafts).length === 0) return;
  e.preventDefault();
  // Older Chromium (Electron) also wants a truthy returnValue; the text itself is not shown.
  e.returnValue = 'unsaved';
});
