/**
 * The state dir's access (`state.info`: fast, no doctor checks), so pages can offer editing
 * at once; kept in step by the read-only switch and config/engine events.
 */
import { create } from 'zustand';
import type { StateInfo } from '../../../shared/contract';
import { api } from '../api';

interface StateInfoState {
  info: StateInfo | undefined;
  load(): Promise<void>;
  set(info: StateInfo): void;
}

export const useStateInfo = create<StateInfoState>((set) => ({
  info: undefined,
  async load() {
    try {
      set({ info: await api['state.info']({}) });
    } catch {
      // app.status reports the state dir too; this is only the fast path.
    }
  },
  set(info) {
    set({ info });
  },
}));
