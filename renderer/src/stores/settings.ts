/**
 * Settings: the config view from the engine (effective values, raw file values, defaults and
 * the JSON Schema the form is generated from), saving one key at a time, and validation.
 */
import { create } from 'zustand';
import type { ConfigView } from '../../../shared/contract';
import { api } from '../api';

interface SettingsState {
  view: ConfigView | undefined;
  error: string | undefined;
  loading: boolean;
  /** Key path of the last successful save, for a short "Saved" confirmation. */
  savedKey: string | undefined;
  load(): Promise<void>;
  /** Save one key (undefined = reset to default); resolves to an error message or undefined. */
  save(keyPath: string, value: unknown): Promise<string | undefined>;
  /** Ask the engine whether a value is valid for a key, without saving it. */
  validate(keyPath: string, value: unknown): Promise<string | undefined>;
}

export const useSettings = create<SettingsState>((set) => ({
  view: undefined,
  error: undefined,
  loading: false,
  savedKey: undefined,
  async load() {
    set({ loading: true });
    try {
      set({ view: await api['config.get']({}), error: undefined });
    } catch (err) {
      set({ error: (err as Error).message });
    } finally {
      set({ loading: false });
    }
  },
  async save(keyPath, value) {
    try {
      const view = await api['config.set']({ keyPath, value });
      set({ view, savedKey: keyPath });
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  },
  async validate(keyPath, value) {
    const res = await api['config.validate']({ keyPath, value });
    return res.ok ? undefined : (res.message ?? 'invalid value');
  },
}));
