/** The left rail: one button per page, keyboard reachable, the current page marked. */
import { useApp, type Page } from '../stores/app';
import { useDrafts } from '../stores/drafts';
import { DOOR } from '../door';

const ITEMS: { page: Page; label: string; icon: string }[] = [
  { page: 'sessions', label: 'Sessions', icon: '☰' },
  { page: 'memory', label: 'Memory', icon: '✎' },
  { page: 'search', label: 'Search', icon: '⌕' },
  { page: 'chat', label: 'Chat', icon: '✉' },
  { page: 'settings', label: 'Settings', icon: '⚙' },
  { page: 'status', label: 'Status', icon: '♥' },
  { page: 'welcome', label: 'Folders', icon: '⌂' },
];

/** Pages that only write or switch folders: not behind the read-only tab in OpenClaw. */
const NOT_IN_TAB: readonly Page[] = ['chat', 'settings', 'welcome'];

export function Rail() {
  const page = useApp((s) => s.page);
  const go = useApp((s) => s.go);
  const theme = useApp((s) => s.theme);
  const toggleTheme = useApp((s) => s.toggleTheme);
  const unsaved = Object.keys(useDrafts((s) => s.drafts)).length;
  return (
    <nav className="rail" aria-label="Main">
      <div className="rail-brand" aria-hidden="true">
        ▲
      </div>
      {ITEMS.filter((it) => DOOR !== 'tab' || !NOT_IN_TAB.includes(it.page)).map((it) => (
        <button
          key={it.page}
          type="button"
          className={`rail-item${page === it.page ? ' active' : ''}`}
          aria-current={page === it.page ? 'page' : undefined}
          onClick={() => go(it.page)}
        >
          <span className="rail-icon" aria-hidden="true">
            {it.icon}
          </span>
          <span className="rail-label">{it.label}</span>
          {it.page === 'memory' && unsaved > 0 && (
            <span className="rail-dot" data-testid="rail-unsaved">
              <span className="sr-only">, {unsaved} unsaved</span>
            </span>
          )}
        </button>
      ))}
      <div className="rail-spacer" />
      <button
        type="button"
        className="rail-item"
        onClick={toggleTheme}
        aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
        title="Toggle theme"
      >
        <span className="rail-icon" aria-hidden="true">
          {theme === 'dark' ? '☀' : '☾'}
        </span>
        <span className="rail-label">Theme</span>
      </button>
    </nav>
  );
}
