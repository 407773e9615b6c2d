/**
 * Keyboard paths of the shell: a skip link to the main pane, Alt+1…6 to
 * switch pages (Ctrl+digits belong to the browser's tabs), and `?` for a sheet listing every
 * shortcut (a modal <dialog>: focus is trapped and Esc closes it).
 */
import { useEffect, useRef, useState } from 'react';
import { PAGES, useApp } from '../stores/app';

const LABELS: Record<(typeof PAGES)[number], string> = {
  sessions: 'Sessions',
  memory: 'Memory',
  search: 'Search',
  chat: 'Chat',
  settings: 'Settings',
  status: 'Status',
};

function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

/** The first element of the page: jumps over the rail to the main pane. */
export function SkipLink() {
  return (
    <a
      className="skip-link"
      href="#main"
      onClick={(e) => {
        // The hash is the router's: move the focus instead of navigating.
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}
    >
      Skip to content
    </a>
  );
}

/** Global page shortcuts and the `?` sheet (mount once, in App). */
export function ShortcutSheet() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && /^Digit[1-6]$/.test(e.code)) {
        const page = PAGES[Number(e.code.slice(5)) - 1];
        if (page) {
          e.preventDefault();
          useApp.getState().go(page);
        }
        return;
      }
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
        e.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  const rows: [string, string][] = [
    ...PAGES.map((p, i): [string, string] => [`Alt+${i + 1}`, `Go to ${LABELS[p]}`]),
    ['Ctrl/⌘+K', 'Search memory from anywhere'],
    ['↑ / ↓, Enter', 'Move through a list (sessions, search results) and open'],
    ['Home / End', 'First / last entry of a timeline or line of a big file'],
    ['Arrow keys, PageUp / PageDown', 'Move through the daily-notes calendar by day, week, month'],
    ['Ctrl/⌘+S, Esc', 'Save / cancel a memory edit'],
    ['?', 'This list'],
  ];
  return (
    <dialog ref={ref} className="shortcuts" aria-labelledby="shortcuts-title" onClose={() => setOpen(false)}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {rows.map(([k, what]) => (
            <tr key={k}>
              <th scope="row">
                <kbd>{k}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
