/**
 * Work a long-lived host (the Electron app, `cairn serve`) starts once the engine is up:
 * the memory index syncs on app start (SPEC §6), in the background, with progress and
 * `index.idle` events like any other sync. One-shot CLI commands do not call this: they sync
 * before a search only when the index is missing or dirty.
 */
import type { Engine } from './engine';
import { memorySearchSettings } from './config/memory-search';

export function startBackgroundWork(engine: Engine): void {
  const { config } = engine.ctx.config();
  if (!memorySearchSettings(config).enabled) return;
  void engine.dispatcher.dispatch('index.sync', {}).then((res) => {
    if (!res.ok && res.error.code !== 'cancelled') engine.ctx.warn(`start-up index sync failed: ${res.error.message}`);
  });
}
