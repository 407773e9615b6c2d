/**
 * The Sessions domain store: the session list (search, sort, keyboard selection), the open
 * session's entries (loaded page by page so a 10,000-entry session paints at once), its
 * compactions and token series, the pruning preview with unsaved overrides, and the
 * compaction inspector (dry-run plan, compact now with progress and cancel).
 * Every value comes from the engine through the typed client; errors become messages.
 */
import { create, type StateCreator, type StoreApi } from 'zustand';
import { api } from '../api';
import type { RawEntry } from '../pages/sessions/entry-types';
import type { MalformedLineView, UnreadableStore } from '../../../shared/types/sessions';
import { CairnError } from '../../../shared/client';
import type { FieldError } from '../../../shared/contract/define';
import {
  type CompactPlanView,
  type CompactResultView,
  type PruneOverrides,
  type PrunePreviewView,
  type SessionOverview,
  type SessionRow,
  fetchEntries,
  fetchList,
  fetchOverview,
  fetchPlan,
  fetchPrune,
  runCompact,
} from './sessions-api';

export type { CompactionInfo, SessionRow, PruneOverrides, TokenSeries } from './sessions-api';

export type SortKey = 'activity' | 'size' | 'compactions';
export type SessionTab = 'timeline' | 'pruning' | 'compaction';

/** First page small (first paint), the rest in larger pages in the background. */
export const FIRST_PAGE = 80;
export const PAGE = 400;

interface Async<T> {
  value: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** The request fields the engine refused (path + message), for the form to mark. */
  fields?: FieldError[];
}
const idle = <T>(): Async<T> => ({ value: undefined, error: undefined, loading: false });

export interface CompactRun {
  running: boolean;
  opId: string | undefined;
  progress: { phase: string; message?: string; done?: number; total?: number } | undefined;
  result: CompactResultView | undefined;
  error: string | undefined;
}

interface SessionsState {
  list: Async<{ sessionsDir: string; sessions: SessionRow[]; unreadable: UnreadableStore[] }>;
  query: string;
  sort: SortKey;
  selectedId: string | undefined;
  tab: SessionTab;
  /** Entries of the open session; `undefined` slots are still loading. */
  entries: (RawEntry | undefined)[];
  entriesError: string | undefined;
  /** True once every page of the open session is loaded. */
  entriesComplete: boolean;
  /** Set while the first rows come from a big file's head and the engine reads the whole file. */
  entriesPartial: { bytesRead: number; bytes: number } | undefined;
  /** Lines of the open session's file that did not parse (shown in place in the timeline). */
  malformed: MalformedLineView[];
  overview: Async<SessionOverview>;
  /** A request to scroll the timeline to an entry (nonce re-triggers the same id). */
  jump: { id: string; nonce: number } | undefined;
  /** A JSONL line to scroll to (a search citation) once the entry holding it is loaded. */
  lineJump: number | undefined;
  prune: Async<PrunePreviewView>;
  overrides: PruneOverrides;
  plan: Async<CompactPlanView>;
  instructions: string;
  all: boolean;
  run: CompactRun;
  loadList(): Promise<void>;
  setQuery(q: string): void;
  setSort(s: SortKey): void;
  open(sessionId: string | undefined): void;
  /** Re-read the open session (it changed on disk), keeping the tab and the compaction result. */
  reload(): void;
  setTab(t: SessionTab): void;
  jumpTo(entryId: string): void;
  /** Scroll to the first entry at or after JSONL line `line`, as soon as it is loaded. */
  jumpToLine(line: number): void;
  loadPrune(): Promise<void>;
  setOverrides(o: PruneOverrides): void;
  loadPlan(): Promise<void>;
  setInstructions(s: string): void;
  setAll(all: boolean): void;
  compactNow(): Promise<void>;
  cancelCompact(): void;
}

/** The filtered, sorted list (derived; never stored). */
export function visibleSessions(rows: SessionRow[], query: string, sort: SortKey): SessionRow[] {
  const q = query.trim().toLowerCase();
  const out = q
    ? rows.filter((r) => `${r.title ?? ''} ${r.key ?? ''} ${r.sessionId}`.toLowerCase().includes(q))
    : rows.slice();
  const by: Record<SortKey, (r: SessionRow) => number> = {
    activity: (r) => r.updatedAt ?? 0,
    size: (r) => r.bytes,
    compactions: (r) => r.compactions,
  };
  const f = by[sort];
  return out.sort((a, b) => f(b) - f(a) || (b.updatedAt ?? 0) - (a.updatedAt ?? 0));
}

const errText = (err: unknown) => (err instanceof Error ? err.message : String(err));

let loadCtl: AbortController | undefined;
let pruneSeq = 0;
let compactCtl: AbortController | undefined;

type Set = StoreApi<SessionsState>['setState'];
type Get = StoreApi<SessionsState>['getState'];
type Slice<K extends keyof SessionsState> = StateCreator<SessionsState, [], [], Pick<SessionsState, K>>;

/** Turn a pending line jump into an entry jump once the entry holding the line is loaded. */
function resolveLineJump(set: Set, get: Get): void {
  const { lineJump, entries } = get();
  if (lineJump === undefined) return;
  for (const e of entries) {
    if (!e) return; // pages load in file order: wait for this one
    if ((e.$line ?? 0) >= lineJump) {
      set({ lineJump: undefined });
      get().jumpTo(e.id);
      return;
    }
  }
  if (get().entriesComplete && entries.length) {
    set({ lineJump: undefined }); // past the last entry: show the end
    get().jumpTo(entries[entries.length - 1]!.id);
  }
}


/** Load the open session's entries: a small first page, then the rest in the background. */
async function loadEntries(set: Set, get: Get, sessionId: string, signal: AbortSignal, onFirstPage: () => void): Promise<void> {
  try {
    const first = await fetchEntries(sessionId, 0, FIRST_PAGE);
    if (signal.aborted) return;
    const entries: (RawEntry | undefined)[] = new Array(first.total);
    first.entries.forEach((e, i) => (entries[i] = e));
    set({ entries, entriesComplete: !first.partial && first.entries.length >= first.total, entriesPartial: first.partial, malformed: first.malformed });
    resolveLineJump(set, get);
    onFirstPage();
    // A partial first page came from a big file's head: the next answer is for the whole
    // file (its total, malformed lines, branch), so page 0 is read again with it.
    let total = first.total;
    let partial = first.partial;
    for (let offset = partial ? 0 : first.entries.length; offset < total || partial; ) {
      // Pages small enough that parsing one (~0.5 MB of JSON) stays a short task.
      const page = await fetchEntries(sessionId, offset, partial ? FIRST_PAGE : PAGE);
      if (signal.aborted) return;
      const next = get().entries.slice();
      next.length = page.total;
      page.entries.forEach((e, i) => (next[offset + i] = e));
      total = page.total;
      offset += page.entries.length;
      set({ entries: next, entriesComplete: !page.partial && offset >= total, entriesPartial: page.partial, ...(partial ? { malformed: page.malformed } : {}) });
      partial = page.partial;
      resolveLineJump(set, get);
      if (page.entries.length === 0) break;
    }
  } catch (err) {
    if (!signal.aborted) set({ entriesError: errText(err) });
  }
}

type ListKeys = 'loadList' | 'setQuery' | 'setSort';
type OpenKeys = 'open' | 'reload' | 'setTab' | 'jumpTo' | 'jumpToLine';
type PruneKeys = 'loadPrune' | 'setOverrides';
type CompactKeys = 'loadPlan' | 'setInstructions' | 'setAll' | 'compactNow' | 'cancelCompact';

/** What a session's view starts from: nothing loaded yet (with no session open, and on each open). */
function openedFresh(): Pick<SessionsState, 'entries' | 'entriesError' | 'entriesComplete' | 'entriesPartial' | 'malformed' | 'overview' | 'jump' | 'lineJump' | 'prune' | 'plan' | 'run'> {
  return {
    entries: [],
    entriesError: undefined,
    entriesComplete: false,
    entriesPartial: undefined,
    malformed: [],
    overview: idle(),
    jump: undefined,
    lineJump: undefined,
    prune: idle(),
    plan: idle(),
    run: { running: false, opId: undefined, progress: undefined, result: undefined, error: undefined },
  };
}

/** The state of a store with no session open. */
const initial: Omit<SessionsState, ListKeys | OpenKeys | PruneKeys | CompactKeys> = {
  list: idle(),
  query: '',
  sort: 'activity',
  selectedId: undefined,
  tab: 'timeline',
  ...openedFresh(),
  overrides: {},
  instructions: '',
  all: false,
};

/** The session list: load, filter, sort. */
const listSlice: Slice<ListKeys> = (set) => ({
  async loadList() {
    set((s) => ({ list: { ...s.list, loading: true } }));
    try {
      set({ list: { value: await fetchList(), error: undefined, loading: false } });
    } catch (err) {
      set((s) => ({ list: { ...s.list, error: errText(err), loading: false } }));
    }
  },
  setQuery: (query) => set({ query }),
  setSort: (sort) => set({ sort }),

});

/** Opening a session (entries, overview, the open tab's data) and jumps in its timeline. */
const openSlice: Slice<OpenKeys> = (set, get) => ({
  open(sessionId) {
    if (sessionId === get().selectedId) return;
    loadCtl?.abort();
    compactCtl?.abort();
    set({ selectedId: sessionId, ...openedFresh() });
    if (!sessionId) return;
    const ctl = (loadCtl = new AbortController());
    set({ overview: { value: undefined, error: undefined, loading: true } });
    // The chart and cards come second: the first page of entries is what the user waits for.
    const loadOverview = () =>
      fetchOverview(sessionId).then(
        (value) => !ctl.signal.aborted && set({ overview: { value, error: undefined, loading: false } }),
        (err) => !ctl.signal.aborted && set({ overview: { value: undefined, error: errText(err), loading: false } }),
      );
    void loadEntries(set, get, sessionId, ctl.signal, () => void loadOverview());
    const tab = get().tab;
    if (tab === 'pruning') void get().loadPrune();
    if (tab === 'compaction') void get().loadPlan();
  },

  reload() {
    const { selectedId: id, run } = get();
    if (!id) return;
    set({ selectedId: undefined });
    get().open(id); // same tab: open() refreshes its pruning preview or plan too
    set({ run });
  },

  setTab(tab) {
    set({ tab });
    if (tab === 'pruning' && !get().prune.value && !get().prune.loading) void get().loadPrune();
    if (tab === 'compaction' && !get().plan.value && !get().plan.loading) void get().loadPlan();
  },

  jumpTo(entryId) {
    set({ tab: 'timeline', jump: { id: entryId, nonce: (get().jump?.nonce ?? 0) + 1 } });
  },

  jumpToLine(line) {
    set({ tab: 'timeline', lineJump: line });
    resolveLineJump(set, get);
  },
});

/** The pruning preview, with the settings tried out. */
const pruneSlice: Slice<PruneKeys> = (set, get) => ({
  async loadPrune() {
    const id = get().selectedId;
    if (!id) return;
    const seq = ++pruneSeq;
    set((s) => ({ prune: { ...s.prune, loading: true, error: undefined, fields: undefined } }));
    try {
      const value = await fetchPrune(id, get().overrides);
      if (seq === pruneSeq && id === get().selectedId) set({ prune: { value, error: undefined, loading: false } });
    } catch (err) {
      if (seq === pruneSeq) set((s) => ({ prune: { ...s.prune, error: errText(err), fields: err instanceof CairnError ? err.fields : undefined, loading: false } }));
    }
  },
  setOverrides(o) {
    set({ overrides: o });
    void get().loadPrune();
  },

});

/** The compaction plan and "Compact now" with its progress and cancel. */
const compactSlice: Slice<CompactKeys> = (set, get) => ({
  async loadPlan() {
    const id = get().selectedId;
    if (!id) return;
    set((s) => ({ plan: { ...s.plan, loading: true, error: undefined } }));
    try {
      const value = await fetchPlan(id, { instructions: get().instructions, all: get().all });
      if (id === get().selectedId) set({ plan: { value, error: undefined, loading: false } });
    } catch (err) {
      set((s) => ({ plan: { ...s.plan, error: errText(err), loading: false } }));
    }
  },
  setInstructions: (instructions) => set({ instructions }),
  setAll(all) {
    set({ all });
    void get().loadPlan();
  },

  async compactNow() {
    const id = get().selectedId;
    if (!id || get().run.running) return;
    const ctl = (compactCtl = new AbortController());
    const opId = globalThis.crypto.randomUUID();
    set({ run: { running: true, opId, progress: { phase: 'starting' }, result: undefined, error: undefined } });
    const off = api.on('compact.progress', (p) => {
      if (p.opId !== opId || ctl.signal.aborted) return;
      set((s) => ({ run: { ...s.run, progress: { phase: p.phase, message: p.label, done: p.done, total: p.total } } }));
    });
    try {
      const result = await runCompact(id, { instructions: get().instructions, all: get().all }, { signal: ctl.signal, opId });
      result.compaction.ordinal = (get().overview.value?.compactions.length ?? 0) + 1;
      set({ run: { running: false, opId: undefined, progress: undefined, result, error: undefined } });
      // The transcript changed: reload everything that shows it.
      if (get().selectedId === id) get().reload();
      void get().loadList();
    } catch (err) {
      const cancelled = (err as { code?: string }).code === 'cancelled';
      set({ run: { running: false, opId: undefined, progress: undefined, result: undefined, error: cancelled ? 'Cancelled: the transcript was left unchanged.' : errText(err) } });
    } finally {
      off();
    }
  },
  cancelCompact() {
    compactCtl?.abort();
  },
});

export const useSessions = create<SessionsState>()((...a) => ({ ...initial, ...listSlice(...a), ...openSlice(...a), ...pruneSlice(...a), ...compactSlice(...a) }));
