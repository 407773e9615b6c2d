/**
 * Search and the index: the query and filters, search-as-you-type with a short debounce and
 * cancellation of stale requests (AbortSignal through the client), the response (mode,
 * embedder, warnings), and the index status with sync progress.
 */
import { create } from 'zustand';
import type { IndexProgress, IndexStatus, SearchResponse } from '../../../shared/types/search';
import { api } from '../api';

/**
 * Short: results should follow typing. Requests never pile up anyway: a new query cancels the
 * running one and starts only when it has settled (see `run`).
 */
export const SEARCH_DEBOUNCE_MS = 10;

export interface SearchFilters {
  source: 'all' | 'memory' | 'sessions';
  /** YYYY-MM-DD or '' */
  since: string;
  before: string;
  /** undefined = the config's setting */
  decay: boolean | undefined;
  mmr: boolean | undefined;
  /** Annotation filters (OpenClaw's trigger / project / importance comments); '' / undefined = off. */
  trigger: string;
  project: string;
  importanceMin: number | undefined;
}

interface SearchState {
  query: string;
  filters: SearchFilters;
  response: SearchResponse | undefined;
  /** The query the shown response answers. */
  answered: string;
  searching: boolean;
  error: string | undefined;
  index: IndexStatus | undefined;
  indexError: string | undefined;
  progress: IndexProgress | undefined;
  syncing: boolean;
  setQuery(q: string): void;
  setFilters(f: Partial<SearchFilters>): void;
  /** Run the current query now (cancels any request still running). */
  run(): Promise<void>;
  loadIndex(): Promise<void>;
  /** `index.sync` (force = full rebuild); cancellable with cancelSync. */
  sync(force: boolean): Promise<void>;
  cancelSync(): void;
}

let timer: ReturnType<typeof setTimeout> | undefined;
/** The request on the wire, and a promise that settles when it has (never rejects). */
let inflight: { ctl: AbortController; settled: Promise<void> } | undefined;
/** Bumped by every `run`; only the newest run may start a request. */
let runSeq = 0;
let syncCtl: AbortController | undefined;

function isCancelled(err: unknown): boolean {
  return (err as { code?: string }).code === 'cancelled';
}

export const useSearch = create<SearchState>((set, get) => ({
  query: '',
  filters: { source: 'all', since: '', before: '', decay: undefined, mmr: undefined, trigger: '', project: '', importanceMin: undefined },
  response: undefined,
  answered: '',
  searching: false,
  error: undefined,
  index: undefined,
  indexError: undefined,
  progress: undefined,
  syncing: false,
  setQuery(query) {
    set({ query });
    clearTimeout(timer);
    timer = setTimeout(() => void get().run(), SEARCH_DEBOUNCE_MS);
  },
  setFilters(f) {
    set({ filters: { ...get().filters, ...f } });
    clearTimeout(timer);
    void get().run();
  },
  async run() {
    clearTimeout(timer);
    const mine = ++runSeq;
    // Cancel the stale request (op.cancel through the client's AbortSignal) and wait until
    // it has settled: the engine searches one query at a time, so starting the new one now
    // would only queue it behind the stale one.
    const prev = inflight;
    if (prev) {
      prev.ctl.abort();
      await prev.settled;
    }
    if (mine !== runSeq) return; // a newer query superseded this one while it waited
    const { query, filters } = get();
    const q = query.trim();
    if (!q) {
      set({ response: undefined, answered: '', searching: false, error: undefined });
      return;
    }
    const ctl = new AbortController();
    let settle: () => void = () => {};
    const me = { ctl, settled: new Promise<void>((r) => (settle = r)) };
    inflight = me;
    set({ searching: true });
    try {
      const response = await api['search.query'](
        {
          query: q,
          explain: true,
          source: filters.source,
          ...(filters.since ? { since: filters.since } : {}),
          ...(filters.before ? { before: filters.before } : {}),
          ...(filters.decay !== undefined ? { decay: filters.decay } : {}),
          ...(filters.mmr !== undefined ? { mmr: filters.mmr } : {}),
          ...(filters.trigger ? { trigger: filters.trigger } : {}),
          ...(filters.project ? { project: filters.project } : {}),
          ...(filters.importanceMin !== undefined ? { importanceMin: filters.importanceMin } : {}),
        },
        { signal: ctl.signal },
      );
      if (ctl.signal.aborted) return; // a newer query is on its way
      set({ response, answered: q, error: undefined, searching: false });
    } catch (err) {
      if (ctl.signal.aborted || isCancelled(err)) return;
      // Drop the previous answer: results for an older query must not stand under this one.
      set({ error: (err as Error).message, response: undefined, answered: '', searching: false });
    } finally {
      if (inflight === me) inflight = undefined;
      settle();
    }
  },
  async loadIndex() {
    try {
      set({ index: await api['index.status']({}), indexError: undefined });
    } catch (err) {
      set({ indexError: (err as Error).message });
    }
  },
  async sync(force) {
    syncCtl?.abort();
    const ctl = new AbortController();
    syncCtl = ctl;
    set({ syncing: true, progress: undefined, indexError: undefined });
    try {
      await api['index.sync']({ force }, { signal: ctl.signal });
    } catch (err) {
      if (!isCancelled(err)) set({ indexError: (err as Error).message });
    } finally {
      if (syncCtl === ctl) {
        syncCtl = undefined;
        set({ syncing: false, progress: undefined });
      }
      await get().loadIndex();
    }
  },
  cancelSync() {
    syncCtl?.abort();
  },
}));

// Progress and idle events keep the index view live wherever it is shown.
let wired = false;
/** Subscribe the store to index events once (idempotent). */
export function wireIndexEvents(): void {
  if (wired) return;
  wired = true;
  try {
    api.on('index.progress', (p) => useSearch.setState({ progress: p.phase === 'done' ? undefined : p }));
    api.on('index.idle', () => {
      useSearch.setState({ progress: undefined });
      void useSearch.getState().loadIndex();
    });
  } catch (err) {
    // An engine without the index channels: say so instead of failing the page.
    useSearch.setState({ indexError: `live index updates unavailable: ${(err as Error).message}` });
  }
}
