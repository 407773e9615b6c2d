/**
 * The memory browser: the file list (MEMORY.md, daily notes, other notes), the open file and
 * the highlighted line range (from the URL hash `#/memory?path=…&from=…&to=…`), editing with
 * an mtime-checked atomic save, and live refresh on `memory.changed`. Unsaved edits are kept
 * per file in the drafts store (stores/drafts.ts) and restored when the file is opened again.
 */
import { create, type StateCreator } from 'zustand';
import type { MemoryFileInfo, MemoryFileText } from '../../../shared/types/search';
import { api } from '../api';
import { useDrafts } from './drafts';
import { readMemory, readMemoryHead } from './memory-read';

export interface LineRange {
  from: number;
  to: number;
}

/** What `#/memory?…` asks for. */
export interface MemoryLocation {
  path: string | undefined;
  range: LineRange | undefined;
}

/** Parse the query part of the hash (`#/memory?path=…&from=…&to=…`). */
export function parseMemoryHash(hash: string): MemoryLocation {
  const q = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '';
  const p = new URLSearchParams(q);
  const from = Number(p.get('from'));
  const to = Number(p.get('to') ?? p.get('from'));
  const range = Number.isInteger(from) && from > 0 ? { from, to: Number.isInteger(to) && to >= from ? to : from } : undefined;
  return { path: p.get('path') ?? undefined, range };
}

/** The hash that opens `path` (optionally at lines) in the memory browser. */
export function memoryHref(path: string, range?: LineRange): string {
  const p = new URLSearchParams({ path });
  if (range) {
    p.set('from', String(range.from));
    p.set('to', String(range.to));
  }
  return `#/memory?${p.toString()}`;
}

interface MemoryState {
  files: MemoryFileInfo[];
  listError: string | undefined;
  listed: boolean;
  doc: MemoryFileText | undefined;
  readError: string | undefined;
  range: LineRange | undefined;
  editing: boolean;
  draft: string;
  saving: boolean;
  saveError: string | undefined;
  /** The open file changed on disk while being edited. */
  changedOnDisk: boolean;
  /** The mtime of the version the edit started from (the conflict check uses it, not doc.mtime). */
  baseMtime: number;
  /** Set when Cancel/Esc was asked for with unsaved changes: the editor asks before discarding. */
  confirmDiscard: boolean;
  /** When the open edit was restored from a kept draft (ms since epoch). */
  restoredAt: number | undefined;
  loadList(): Promise<void>;
  open(loc: MemoryLocation): Promise<void>;
  reload(): Promise<void>;
  startEdit(): void;
  setDraft(text: string): void;
  /** Cancel: leaves at once without changes, else asks (confirmDiscard). */
  cancelEdit(): void;
  /** Throw the edit (and its kept draft) away. */
  discardEdit(): void;
  keepEditing(): void;
  /** Save the draft; `force` writes over a version changed on disk. */
  save(force?: boolean): Promise<boolean>;
  onChanged(paths: string[]): void;
}

type EditActions = 'startEdit' | 'setDraft' | 'cancelEdit' | 'discardEdit' | 'keepEditing' | 'save';
type Slice<K extends keyof MemoryState> = StateCreator<MemoryState, [], [], Pick<MemoryState, K>>;

/** The file list and the open file: reading, reloading and following changes on disk. */
const filesSlice: Slice<Exclude<keyof MemoryState, EditActions>> = (set, get) => ({
  files: [],
  listError: undefined,
  listed: false,
  doc: undefined,
  readError: undefined,
  range: undefined,
  editing: false,
  draft: '',
  saving: false,
  saveError: undefined,
  changedOnDisk: false,
  baseMtime: 0,
  confirmDiscard: false,
  restoredAt: undefined,
  async loadList() {
    try {
      const { files } = await api['memory.list']({});
      set({ files, listError: undefined, listed: true });
    } catch (err) {
      set({ listError: (err as Error).message, listed: true });
    }
  },
  async open({ path, range }) {
    const cur = get().doc;
    set({ range });
    if (!path) return;
    if (cur?.path === path && !get().readError) {
      // Back on the page (or remounted after the event stream reopened): the file may have
      // changed while no memory.changed listener was mounted, or while the stream was away.
      // An open edit is only flagged; a file merely shown is read again.
      if (get().editing) checkDisk(get, set, cur.path);
      else void get().reload();
      return;
    }
    // Leaving a file: its unsaved edit is already kept in the drafts store by setDraft.
    if (cur?.path !== path) set({ editing: false, draft: '', saveError: undefined, changedOnDisk: false, confirmDiscard: false, restoredAt: undefined });
    try {
      const doc = await readMemory(path);
      set({ doc, readError: undefined });
      const kept = useDrafts.getState().drafts[path];
      // Coming back to a file with an unsaved edit: reopen the editor on it. A file that
      // changed on disk meanwhile is flagged now, not at Save.
      if (kept) set({ editing: true, draft: kept.text, baseMtime: kept.baseMtime, restoredAt: kept.at, changedOnDisk: kept.baseMtime !== doc.mtime });
    } catch (err) {
      set({ doc: undefined, readError: `${path}: ${(err as Error).message}` });
    }
  },
  async reload() {
    const cur = get().doc;
    if (!cur) return;
    try {
      set({ doc: await readMemory(cur.path), readError: undefined, changedOnDisk: false });
    } catch (err) {
      set({ readError: `${cur.path}: ${(err as Error).message}` });
    }
  },
  onChanged(paths) {
    void get().loadList();
    const doc = get().doc;
    if (!doc || !paths.includes(doc.path) || get().saving) return;
    if (!get().editing) {
      void get().reload();
      return;
    }
    checkDisk(get, set, doc.path);
  },
});

/** Editing the open file: the draft (kept per file in the drafts store), cancel, save. */
const editSlice: Slice<EditActions> = (set, get) => ({
  startEdit() {
    const doc = get().doc;
    if (doc) set({ editing: true, draft: doc.text, baseMtime: doc.mtime, saveError: undefined, changedOnDisk: false, restoredAt: undefined });
  },
  setDraft(draft) {
    const { doc, baseMtime } = get();
    set({ draft, confirmDiscard: false });
    if (!doc) return;
    if (draft === doc.text && baseMtime === doc.mtime) useDrafts.getState().drop(doc.path);
    else useDrafts.getState().put(doc.path, draft, baseMtime);
  },
  cancelEdit() {
    const { doc, draft } = get();
    if (doc && draft !== doc.text) set({ confirmDiscard: true });
    else get().discardEdit();
  },
  discardEdit() {
    const doc = get().doc;
    if (doc) useDrafts.getState().drop(doc.path);
    set({ editing: false, saveError: undefined, changedOnDisk: false, confirmDiscard: false, restoredAt: undefined });
  },
  keepEditing() {
    set({ confirmDiscard: false });
  },
  async save(force = false) {
    const { doc, draft, baseMtime } = get();
    if (!doc) return false;
    set({ saving: true, saveError: undefined });
    try {
      // Overwrite: take the on-disk version's mtime, so the engine's conflict check passes.
      const expectedMtime = force ? (await readMemoryHead(doc.path)).mtime : baseMtime;
      const out = await api['memory.write']({ path: doc.path, text: draft, expectedMtime });
      useDrafts.getState().drop(doc.path);
      set({ doc: out, editing: false, saving: false, changedOnDisk: false, restoredAt: undefined });
      void get().loadList();
      return true;
    } catch (err) {
      const e = err as Error & { code?: string };
      set({
        saving: false,
        // A conflict says it once (the engine's message repeats the same fact).
        saveError: e.code === 'conflict' ? `Not saved: ${doc.path} changed on disk since you started editing.` : `Not saved: ${e.message}`,
        changedOnDisk: e.code === 'conflict' || get().changedOnDisk,
      });
      return false;
    }
  },
});

export const useMemory = create<MemoryState>()((...a) => ({ ...filesSlice(...a), ...editSlice(...a) }));

/** Flag the open edit when the file on disk is no longer the version it started from. */
function checkDisk(get: () => MemoryState, set: (s: Partial<MemoryState>) => void, path: string): void {
  // Our own save (or a watcher echo of it) also arrives here: flag only a real change.
  void readMemoryHead(path).then(
    (disk) => {
      if (get().editing && get().doc?.path === disk.path && disk.mtime !== get().baseMtime) set({ changedOnDisk: true });
    },
    () => set({ changedOnDisk: true }),
  );
}
