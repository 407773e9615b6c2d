/** App-wide state: the current page (kept in the URL hash), theme, and the engine's status. */
import { create } from 'zustand';
import type { AppStatus } from '../../../shared/contract';
import { api } from '../api';

export const PAGES = ['sessions', 'memory', 'search', 'chat', 'settings', 'status'] as const;
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
  go(page: Page): void;
  toggleTheme(): void;
  loadStatus(): Promise<void>;
  loadSummary(): Promise<void>;
}

export const useApp = create<AppState>((set, get) => ({
  page: pageFromHash(),
  theme: initialTheme(),
  status: undefined,
  summary: undefined,
  statusError: undefined,
  statusLoading: false,
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
    set({ statusLoading: true });
    try {
      const status = await api['app.status']({});
      set({ status, summary: status, statusError: undefined });
    } catch (err) {
      set({ statusError: (err as Error).message });
    } finally {
      set({ statusLoading: false });
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
