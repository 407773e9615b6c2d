/**
 * The memory browser: the file list (MEMORY.md, daily notes, other notes), the open file and
 * the highlighted line range (from the URL hash `#/memory?path=…&from=…&to=…`), editing with
 * an mtime-checked atomic save, and live refresh on `memory.changed`.
 */
import { create } from 'zustand';
import type { MemoryFileInfo, MemoryFileText } from '../../../shared/types/search';
import { api } from '../api';

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
  loadList(): Promise<void>;
  open(loc: MemoryLocation): Promise<void>;
  reload(): Promise<void>;
  startEdit(): void;
  setDraft(text: string): void;
  cancelEdit(): void;
  /** Save the draft; `force` writes over a version changed on disk. */
  save(force?: boolean): Promise<boolean>;
  onChanged(paths: string[]): void;
}

export const useMemory = create<MemoryState>((set, get) => ({
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
    if (cur?.path === path && !get().readError) return;
    if (get().editing && cur?.path !== path) set({ editing: false, saveError: undefined, changedOnDisk: false });
    try {
      const doc = await api['memory.read']({ path });
      set({ doc, readError: undefined });
    } catch (err) {
      set({ doc: undefined, readError: `${path}: ${(err as Error).message}` });
    }
  },
  async reload() {
    const cur = get().doc;
    if (!cur) return;
    try {
      set({ doc: await api['memory.read']({ path: cur.path }), readError: undefined, changedOnDisk: false });
    } catch (err) {
      set({ readError: `${cur.path}: ${(err as Error).message}` });
    }
  },
  startEdit() {
    const doc = get().doc;
    if (doc) set({ editing: true, draft: doc.text, saveError: undefined, changedOnDisk: false });
  },
  setDraft(draft) {
    set({ draft });
  },
  cancelEdit() {
    set({ editing: false, saveError: undefined, changedOnDisk: false });
  },
  async save(force = false) {
    const { doc, draft } = get();
    if (!doc) return false;
    set({ saving: true, saveError: undefined });
    try {
      // Overwrite: take the on-disk version's mtime, so the engine's conflict check passes.
      const expectedMtime = force ? (await api['memory.read']({ path: doc.path })).mtime : doc.mtime;
      const out = await api['memory.write']({ path: doc.path, text: draft, expectedMtime });
      set({ doc: out, editing: false, saving: false, changedOnDisk: false });
      void get().loadList();
      return true;
    } catch (err) {
      const e = err as Error & { code?: string };
      set({
        saving: false,
        saveError: e.code === 'conflict' ? `Not saved: ${doc.path} changed on disk since you opened it. ${e.message}` : `Not saved: ${e.message}`,
        changedOnDisk: e.code === 'conflict' || get().changedOnDisk,
      });
      return false;
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
    // Our own save (or a watcher echo of it) also arrives here: flag only a real change.
    void api['memory.read']({ path: doc.path }).then(
      (disk) => {
        if (get().editing && get().doc?.path === disk.path && disk.mtime !== get().doc?.mtime) set({ changedOnDisk: true });
      },
      () => set({ changedOnDisk: true }),
    );
  },
}));
