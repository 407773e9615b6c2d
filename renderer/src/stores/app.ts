/** App-wide state: the current page (kept in the URL hash), theme, and the engine's status. */
import { create } from 'zustand';
import type { AppStatus, DoctorCheck } from '../../../shared/contract';
import { api } from '../api';
import { onHostTheme } from '../door';

export const PAGES = ['sessions', 'memory', 'search', 'chat', 'settings', 'status', 'welcome'] as const;
export type Page = (typeof PAGES)[number];
export type Theme = 'light' | 'dark';

function pageFromHash(): Page {
  const h = window.location.hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return (PAGES as readonly string[]).includes(h) ? (h as Page) : 'sessions';
}

function initialTheme(): Theme {
  const saved = localStorage.getItem('cairn.theme');
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

interface AppState {
  page: Page;
  theme: Theme;
  /** The full status with doctor checks (Status page). */
  status: AppStatus | undefined;
  /** The quick status without checks (banners); loaded at start. */
  summary: AppStatus | undefined;
  statusError: string | undefined;
  statusLoading: boolean;
  /** The checks of the run in progress, as each completes (doctor.check events). */
  liveChecks: DoctorCheck[];
  go(page: Page): void;
  toggleTheme(): void;
  loadStatus(): Promise<void>;
  loadSummary(): Promise<void>;
}

/** The opId of the newest doctor run: only its checks are shown while it streams. */
let liveRun: string | undefined;

export const useApp = create<AppState>((set, get) => ({
  page: pageFromHash(),
  theme: initialTheme(),
  status: undefined,
  summary: undefined,
  statusError: undefined,
  statusLoading: false,
  liveChecks: [],
  go(page) {
    if (get().page === page) return;
    window.location.hash = `/${page}`;
    set({ page });
  },
  toggleTheme() {
    const theme: Theme = get().theme === 'dark' ? 'light' : 'dark';
    localStorage.setItem('cairn.theme', theme);
    set({ theme });
  },
  async loadStatus() {
    // The facts first (fast), then the checks one by one as they complete: the native ones
    // take seconds, and "Checking…" alone for 2–3 s said nothing.
    set({ statusLoading: true, liveChecks: [] });
    const opId = globalThis.crypto.randomUUID();
    // A newer run (Re-run, a config change) replaces an older one still streaming.
    liveRun = opId;
    const off = api.on('doctor.check', (p) => {
      if (p.opId === opId && liveRun === opId) set({ liveChecks: [...get().liveChecks, p.check] });
    });
    try {
      const summary = await api['app.status']({ checks: false });
      set({ summary, status: { ...summary, checks: get().status?.checks ?? [] }, statusError: undefined });
      const { checks } = await api['doctor.run']({}, { opId });
      if (liveRun === opId) set({ status: { ...(get().summary ?? summary), checks } });
    } catch (err) {
      set({ statusError: (err as Error).message });
    } finally {
      off();
      if (liveRun === opId) set({ statusLoading: false, liveChecks: [] });
    }
  },
  async loadSummary() {
    try {
      set({ summary: await api['app.status']({ checks: false }) });
    } catch (err) {
      set({ statusError: (err as Error).message });
    }
  },
}));

window.addEventListener('hashchange', () => useApp.setState({ page: pageFromHash() }));

// In OpenClaw's tab the Control UI's theme wins (it posts it to the frame on load and on change).
onHostTheme((theme) => useApp.setState({ theme }));
