/**
 * The Memory page's three views — the files, MEMORY.md's history, dreaming's reports — kept in
 * the URL hash (`#/memory?view=history`), so a link or a reload lands on the same view.
 */
import { useEffect, useState } from 'react';

export type MemoryView = 'files' | 'history' | 'dreams';

function viewOf(hash: string): MemoryView {
  const q = hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '';
  const v = new URLSearchParams(q).get('view');
  return v === 'history' || v === 'dreams' ? v : 'files';
}

/** The view the hash names (files when it names none). */
export function useMemoryView(): MemoryView {
  const [view, setView] = useState<MemoryView>(() => viewOf(window.location.hash));
  useEffect(() => {
    const sync = () => setView(viewOf(window.location.hash));
    window.addEventListener('hashchange', sync);
    return () => window.removeEventListener('hashchange', sync);
  }, []);
  return view;
}

const TABS: { view: MemoryView; label: string; href: string }[] = [
  { view: 'files', label: 'Files', href: '#/memory' },
  { view: 'history', label: 'MEMORY.md history', href: '#/memory?view=history' },
  { view: 'dreams', label: 'Dreaming', href: '#/memory?view=dreams' },
];

export function MemoryViewTabs({ view }: { view: MemoryView }) {
  return (
    <nav className="mem-views" aria-label="Memory views">
      {TABS.map((t) => (
        <a key={t.view} href={t.href} className={t.view === view ? 'active' : undefined} aria-current={t.view === view ? 'page' : undefined}>
          {t.label}
        </a>
      ))}
    </nav>
  );
}
