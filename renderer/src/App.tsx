/** The shell: left rail, main pane, and banners for config warnings and a read-only state dir. UI engineers: read AGENTS.md ("Renderer (UI) notes") first. */
import { lazy, Suspense, useEffect } from 'react';
import { Rail } from './components/Rail';
import { useApp } from './stores/app';

// Pages load on first visit: the first paint needs only the shell and the opening page
// (Markdown, charts and virtual lists stay out of the entry chunk).
const StatusPage = lazy(() => import('./pages/StatusPage').then((m) => ({ default: m.StatusPage })));
const SessionsPage = lazy(() => import('./pages/sessions/SessionsPage').then((m) => ({ default: m.SessionsPage })));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const MemoryPage = lazy(() => import('./pages/memory/MemoryPage').then((m) => ({ default: m.MemoryPage })));
const SearchPage = lazy(() => import('./pages/search/SearchPage').then((m) => ({ default: m.SearchPage })));
const ChatPage = lazy(() => import('./pages/chat/ChatPage').then((m) => ({ default: m.ChatPage })));
import { useSearchShortcut } from './components/useSearchShortcut';
import { api } from './api';
import { useStateInfo } from './stores/state';
import { DraftsBanner } from './components/DraftsBanner';

function Banner() {
  const status = useApp((s) => s.summary);
  const info = useStateInfo((s) => s.info);
  const go = useApp((s) => s.go);
  if (!status) return null;
  // The read-only switch updates the state-info store at once; the summary may lag.
  const writable = info?.writable ?? status.writable;
  const n = status.configWarnings.length;
  return (
    <>
      {n > 0 && (
        <div className="banner banner-warn" role="status">
          {n === 1 ? 'A config value is invalid' : `${n} config values are invalid`} and use defaults:{' '}
          {status.configWarnings.map((w) => w.keyPath || w.file).join(', ')}.{' '}
          <button type="button" className="link" onClick={() => go('status')}>
            Details
          </button>
        </div>
      )}
      {!writable && (
        <div className="banner" role="status">
          Read-only: Cairn did not create this state directory, so transcripts and memory are not changed.
        </div>
      )}
    </>
  );
}

export function App() {
  const page = useApp((s) => s.page);
  const theme = useApp((s) => s.theme);
  const loadSummary = useApp((s) => s.loadSummary);
  useSearchShortcut();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  // Quick status for the banners; the doctor checks run only on the Status page.
  useEffect(() => {
    void loadSummary();
    const offs = [api.on('config.changed', () => void loadSummary()), api.on('engine.warning', () => void loadSummary())];
    return () => offs.forEach((off) => off());
  }, [loadSummary]);
  return (
    <div className="app">
      <Rail />
      <main className="main">
        <Banner />
        <DraftsBanner />
        <Suspense fallback={<p className="page muted">Loading…</p>}>
          {page === 'status' && <StatusPage />}
          {page === 'sessions' && <SessionsPage />}
          {page === 'memory' && <MemoryPage />}
          {page === 'search' && <SearchPage />}
          {page === 'chat' && <ChatPage />}
          {page === 'settings' && <SettingsPage />}
        </Suspense>
      </main>
    </div>
  );
}
