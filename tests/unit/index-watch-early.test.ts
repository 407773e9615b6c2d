/**
 * The Memory page hears of external edits (`memory.changed`) without waiting for the
 * embedder: the watcher starts on the first memory.list even while the embedder is still
 * loading, and when the index cannot open at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { memoryRegistry } from '../../electron/engine/index/registry';
import type { Embedder } from '../../electron/engine/embed/types';
import type { EventPayload } from '../../shared/contract';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
const gates: (() => void)[] = [];
let ended = false;
afterEach(async () => {
  ended = true;
  while (gates.length) gates.pop()!();
  while (engines.length) await engines.pop()!.dispose();
  ended = false;
});

/**
 * Resolves once the agent's watcher is ready — one the engine started itself: this only looks
 * (`isWatched`), it never starts one (calling `watch()` here would start it, and the test would
 * pass without memory.list doing so). The registry has no readiness event, so it checks on
 * every turn of the event loop; the test's timeout bounds it, as it bounds an event that never
 * comes.
 */
async function watcherStarted(engine: Engine, agentId = 'main'): Promise<void> {
  const reg = memoryRegistry(engine.ctx);
  while (!(await reg.isWatched(agentId))) {
    if (ended) throw new Error('the test ended before the watcher was ready');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function start(memorySearch: object, createEmbedder: () => Promise<Embedder | null>) {
  const stateDir = tmpDir('cairn-watch-early-');
  writeTree(stateDir, {
    'cairn/state.json': '{}',
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { ...memorySearch, sync: { watchDebounceMs: 50 } } } } }),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode.\n',
  });
  const engine = createEngine({ stateDir, deps: { createEmbedder } });
  engines.push(engine);
  return { stateDir, engine, api: createDirectClient(engine) };
}

function next<E extends 'memory.changed' | 'index.idle'>(engine: Engine, event: E): Promise<EventPayload<E>> {
  return new Promise((resolve) => {
    const off = engine.events.on(event, (p) => {
      off();
      resolve(p);
    });
  });
}

describe('memory.changed without a ready embedder', () => {
  it('fires for an external edit while the embedder is still loading', async () => {
    // An embedder that has not finished loading (a GGUF model takes seconds); released after the test.
    const loading = new Promise<Embedder | null>((resolve) => gates.push(() => resolve(null)));
    const { api, engine, stateDir } = start({}, () => loading);
    expect(await memoryRegistry(engine.ctx).isWatched('main')).toBe(false);
    expect((await api['memory.list']({})).files.map((f) => f.path)).toEqual(['MEMORY.md']);
    await watcherStarted(engine);
    const changed = next(engine, 'memory.changed');
    fs.appendFileSync(path.join(stateDir, 'workspace/MEMORY.md'), '\nUses restic for backups.\n');
    expect((await changed).paths).toEqual(['MEMORY.md']);
  });

  it('fires when the index cannot open at all (keyword-only, its file unusable)', async () => {
    const { api, engine, stateDir } = start({ provider: 'none' }, async () => null);
    // A directory where the index file belongs: every open fails, memory files still work.
    fs.mkdirSync(engine.ctx.paths('main').indexFile, { recursive: true });
    // memory.list, the Memory page's first call, starts the watcher though the index cannot open.
    expect(await memoryRegistry(engine.ctx).isWatched('main')).toBe(false);
    expect((await api['memory.list']({})).files.map((f) => f.path)).toEqual(['MEMORY.md']);
    await watcherStarted(engine);
    await expect(api['search.query']({ query: 'dark mode' })).rejects.toMatchObject({ message: expect.stringMatching(/^cannot open the index database .*main\.sqlite/) });
    expect((await api['memory.read']({ path: 'MEMORY.md' })).text).toContain('dark mode');
    const changed = next(engine, 'memory.changed');
    writeTree(stateDir, { 'workspace/memory/2024-05-08.md': '# Deploy\n\nThe zeppelin release shipped.\n' });
    expect((await changed).paths).toEqual(['memory/2024-05-08.md']);
  });
});
