/**
 * Collapsing the session list (it took 45% of an 800 px window). The choice is
 * kept in localStorage; without one, a window narrower than 1000 px opens with the list
 * hidden while a session is open.
 */
import { create } from 'zustand';

const KEY = 'cairn.sessions.listHidden';

function initial(): boolean {
  const saved = localStorage.getItem(KEY);
  if (saved === '1' || saved === '0') return saved === '1';
  return window.innerWidth < 1000;
}

interface ListState {
  hidden: boolean;
  toggle(): void;
}

/** Whether the session list is collapsed. */
export const useSessionList = create<ListState>((set, get) => ({
  hidden: initial(),
  toggle() {
    const hidden = !get().hidden;
    localStorage.setItem(KEY, hidden ? '1' : '0');
    set({ hidden });
  },
}));

/** The button that hides or shows the session list (in the open session's header). */
export function ListToggle() {
  const hidden = useSessionList((s) => s.hidden);
  const toggle = useSessionList((s) => s.toggle);
  return (
    <button type="button" className="list-toggle" aria-expanded={!hidden} aria-controls="sessions-list" onClick={toggle}>
      {hidden ? 'Show session list' : 'Hide session list'}
    </button>
  );
}
