/** Ctrl/⌘+K from anywhere: go to Search and put the cursor in the search box. */
import { useEffect } from 'react';
import { useApp } from '../stores/app';

const INPUT_ID = 'search-input';

function focusBox(tries = 10): void {
  const el = document.getElementById(INPUT_ID) as HTMLInputElement | null;
  if (el) {
    el.focus();
    el.select();
  } else if (tries > 0) {
    // The Search page mounts on the next render.
    requestAnimationFrame(() => focusBox(tries - 1));
  }
}

/** Install the global shortcut (once, in App). */
export function useSearchShortcut(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        useApp.getState().go('search');
        focusBox();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
