/**
 * The welcome and the folder switcher: what is open, what else is on this computer
 * (`welcome.info`), and opening another folder or the demo in place. When the engine host
 * switches (`state.switched`, from this window or another one), the window reloads at the
 * Sessions page, so every view reads the new folder and nothing of the old one stays on screen.
 */
import { create } from 'zustand';
import type { WelcomeInfo } from '../../../shared/types/welcome';
import { api } from '../api';

interface WelcomeState {
  info: WelcomeInfo | undefined;
  error: string | undefined;
  /** What is being opened ("demo" or a path), for the buttons' busy state. */
  opening: string | undefined;
  /** A person chose "Start a new assistant here": the empty folder shows the normal pages. */
  dismissed: boolean;
  load(): Promise<void>;
  open(path: string): Promise<void>;
  openDemo(): Promise<void>;
  dismiss(): void;
}

const DISMISSED_KEY = 'cairn.welcomeDismissed';

function reloadAtSessions(): void {
  window.location.hash = '/sessions';
  window.location.reload();
}

export const useWelcome = create<WelcomeState>((set, get) => ({
  info: undefined,
  error: undefined,
  opening: undefined,
  dismissed: false,
  async load() {
    try {
      const info = await api['welcome.info']({});
      set({ info, error: undefined, dismissed: sessionStorage.getItem(DISMISSED_KEY) === info.stateDir });
    } catch (err) {
      set({ error: (err as Error).message });
    }
  },
  async open(path) {
    if (get().opening) return;
    set({ opening: path, error: undefined });
    try {
      await api['state.open']({ path });
      reloadAtSessions();
    } catch (err) {
      set({ error: (err as Error).message, opening: undefined });
    }
  },
  async openDemo() {
    if (get().opening) return;
    set({ opening: 'demo', error: undefined });
    try {
      await api['demo.open']({});
      reloadAtSessions();
    } catch (err) {
      set({ error: (err as Error).message, opening: undefined });
    }
  },
  dismiss() {
    const dir = get().info?.stateDir;
    if (dir) sessionStorage.setItem(DISMISSED_KEY, dir);
    set({ dismissed: true });
  },
}));

// Another window (or the CLI through the same host) switched: follow it.
api.on('state.switched', () => {
  if (!useWelcome.getState().opening) reloadAtSessions();
});
