/** The shell: left rail, main pane, and banners for config warnings and a read-only state dir. UI engineers: read AGENTS.md ("Renderer (UI) notes") first. */
import { Suspense, useEffect } from 'react';
import { Rail } from './components/Rail';
import { useApp } from './stores/app';

// Pages load on first visit: the first paint needs only the shell and the opening page
// (Markdown, charts and virtual lists stay out of the entry chunk).
const StatusPage = lazyPage(() => import('./pages/StatusPage'), (m) => m.StatusPage);
const SessionsPage = lazyPage(() => import('./pages/sessions/SessionsPage'), (m) => m.SessionsPage);
const SettingsPage = lazyPage(() => import('./pages/settings/SettingsPage'), (m) => m.SettingsPage);
const MemoryPage = lazyPage(() => import('./pages/memory/MemoryPage'), (m) => m.MemoryPage);
const SearchPage = lazyPage(() => import('./pages/search/SearchPage'), (m) => m.SearchPage);
const ChatPage = lazyPage(() => import('./pages/chat/ChatPage'), (m) => m.ChatPage);
const WelcomePage = lazyPage(() => import('./pages/welcome/WelcomePage'), (m) => m.WelcomePage);
import { useSearchShortcut } from './components/useSearchShortcut';
import { api } from './api';
import { useStateInfo } from './stores/state';
import { DraftsBanner } from './components/DraftsBanner';
import { ConnectionBanner } from './components/ConnectionBanner';
import { ShortcutSheet, SkipLink } from './components/Shortcuts';
import { lazyPage } from './lazy-page';
import { useConnection } from './stores/connection';
import { useWelcome } from './stores/welcome';
import { canWrite, READ_ONLY_NOTE } from './door';

/** Banners: invalid config values, a session store Cairn cannot show whole, a read-only state dir. */
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
      {(status.storeWarnings ?? []).map((w) => (
        <div key={w} className="banner banner-warn" role="status" data-testid="store-schema-banner">
          {w}.{' '}
          <button type="button" className="link" onClick={() => go('status')}>
            Details
          </button>
        </div>
      ))}
      {!canWrite && (
        <div className="banner" role="status" data-testid="tab-banner">
          {READ_ONLY_NOTE}
        </div>
      )}
      {canWrite && !writable && (
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
  // Bumped on reconnect: the open page remounts and reloads its data (nothing stale shown as current).
  const epoch = useConnection((s) => s.epoch);
  // An empty folder opens on the welcome instead of an empty session list.
  const welcome = useWelcome((s) => (s.info ? s.info.empty && !s.dismissed : s.error ? false : undefined));
  useEffect(() => {
    void useWelcome.getState().load();
  }, [epoch]);
  useSearchShortcut();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  // Quick status for the banners; the doctor checks run only on the Status page.
  useEffect(() => {
    void loadSummary();
    const offs = [api.on('config.changed', () => void loadSummary()), api.on('engine.warning', () => void loadSummary())];
    return () => offs.forEach((off) => off());
  }, [loadSummary, epoch]);
  return (
    <div className="app">
      <SkipLink />
      <Rail />
      <ShortcutSheet />
      <main className="main" id="main" tabIndex={-1}>
        <ConnectionBanner />
        <Banner />
        <DraftsBanner />
        <Suspense key={epoch} fallback={<p className="page muted">Loading…</p>}>
          {page === 'status' && <StatusPage />}
          {page === 'sessions' && (welcome === undefined ? <p className="page muted">Loading…</p> : welcome ? <WelcomePage /> : <SessionsPage />)}
          {page === 'welcome' && <WelcomePage />}
          {page === 'memory' && <MemoryPage />}
          {page === 'search' && <SearchPage />}
          {page === 'chat' && <ChatPage />}
          {page === 'settings' && <SettingsPage />}
        </Suspense>
      </main>
    </div>
  );
}
