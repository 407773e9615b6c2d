/** The shell: left rail, main pane, and banners for config warnings and a read-only state dir. UI engineers: read AGENTS.md ("Renderer (UI) notes") first. */
import { useEffect } from 'react';
import { Rail } from './components/Rail';
import { useApp } from './stores/app';
import { StatusPage } from './pages/StatusPage';
import { SessionsPage } from './pages/sessions/SessionsPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { MemoryPage } from './pages/memory/MemoryPage';
import { SearchPage } from './pages/search/SearchPage';
import { ChatPage } from './pages/chat/ChatPage';
import { useSearchShortcut } from './components/useSearchShortcut';

function Banner() {
  const status = useApp((s) => s.status);
  const go = useApp((s) => s.go);
  if (!status) return null;
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
      {!status.writable && (
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
  const loadStatus = useApp((s) => s.loadStatus);
  useSearchShortcut();
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    void loadStatus();
  }, [loadStatus]);
  return (
    <div className="app">
      <Rail />
      <main className="main">
        <Banner />
        {page === 'status' && <StatusPage />}
        {page === 'sessions' && <SessionsPage />}
        {page === 'memory' && <MemoryPage />}
        {page === 'search' && <SearchPage />}
        {page === 'chat' && <ChatPage />}
        {page === 'settings' && <SettingsPage />}
      </main>
    </div>
  );
}
