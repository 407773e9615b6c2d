/**
 * A search made while a sync runs (issue 13 follow-up): the watcher's sync clears the dirty
 * mark when it starts, so a search in that window answered from the index as it was before
 * the edit being indexed — a note just written (by the app, the CLI or OpenClaw) was not
 * found. Now a search waits for a running incremental sync; during a full rebuild, which can
 * take minutes with a real embedder, it answers from the old index at once and says so.
 * Real engine, real files and watcher; the embedder holds its document batches at a gate the
 * test opens (an interface fake), so "while a sync runs" is an event, not a race.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { memoryRegistry } from '../../electron/engine/index/registry';
import { GatedEmbedder } from '../helpers/gated-embedder';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

async function start(o: { before?: (stateDir: string) => void } = {}) {
  const stateDir = tmpDir('cairn-sync-search-');
  const embedder = new GatedEmbedder();
  const engine = createEngine({ stateDir, deps: { createEmbedder: async () => embedder, now: () => new Date('2024-06-01T00:00:00Z') } });
  engines.push(engine);
  writeTree(stateDir, {
    // No embedding cache: a rebuild embeds every chunk again (else it takes them from the
    // cache and never reaches the gate).
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { sync: { watchDebounceMs: 50 }, cache: { enabled: false } } } } }),
    'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed commit a1b2c3d.\n',
  });
  engine.ctx.reloadConfig();
  const api = createDirectClient(engine);
  const reg = memoryRegistry(engine.ctx);
  // Built through the registry, not a channel: a channel call starts the watcher at once.
  await reg.sync('main');
  o.before?.(stateDir);
  await reg.watch('main');
  return { stateDir, engine, api, embedder, reg };
}

describe('searching while a sync runs', () => {
  it('waits for the running incremental sync: the note it is indexing is found', async () => {
    // The watcher is up and has seen nothing (the note was written before it started), so
    // only the sync below knows of the note — as after the watcher's sync has begun and
    // cleared the dirty mark.
    const { stateDir, api, embedder, reg } = await start({
      before: (dir) => fs.writeFileSync(path.join(dir, 'workspace/memory/2024-05-09.md'), '# Zeppelin\n\nThe zeppelin hangar lease is signed.\n'),
    });
    expect(await (await reg.get('main')).isDirty({ stat: false })).toBe(false);
    expect(fs.existsSync(path.join(stateDir, 'workspace/memory/2024-05-09.md'))).toBe(true);
    // A first search loads the search modules, so the one below is as quick as in a running app.
    expect((await api['search.query']({ query: 'zeppelin hangar' })).results).toEqual([]);
    embedder.arm();
    const sync = reg.sync('main');
    await embedder.reached;
    let answered = false;
    const search = api['search.query']({ query: 'zeppelin hangar' }).finally(() => (answered = true));
    // Let the search go as far as it can while the sync is held: before, it embedded its
    // query and answered from the index without the note, in a few turns of the event loop.
    for (let turn = 0; turn < 1000 && !answered && embedder.queriesWhileHeld === 0; turn++) await new Promise((r) => setImmediate(r));
    expect(embedder.queriesWhileHeld).toBe(0);
    expect(answered).toBe(false);
    embedder.release();
    const res = await search;
    await expect(sync).resolves.toMatchObject({ full: false });
    expect(res.results[0]?.path).toBe('memory/2024-05-09.md');
  });

  it('a search waiting for the sync can be cancelled (search-as-you-type) and the sync goes on', async () => {
    const { api, embedder, reg } = await start({
      before: (dir) => fs.writeFileSync(path.join(dir, 'workspace/memory/2024-05-09.md'), '# Zeppelin\n\nThe zeppelin hangar lease is signed.\n'),
    });
    await api['search.query']({ query: 'warm-up' });
    embedder.arm();
    const sync = reg.sync('main');
    await embedder.reached;
    const ac = new AbortController();
    const search = api['search.query']({ query: 'zeppelin hangar' }, { signal: ac.signal });
    ac.abort();
    await expect(search).rejects.toMatchObject({ code: 'cancelled' });
    expect(embedder.queriesWhileHeld).toBe(0);
    embedder.release();
    await expect(sync).resolves.toMatchObject({ full: false });
  });

  it('does not queue behind a full rebuild: the old index answers at once, with a warning', async () => {
    const { api, embedder } = await start();
    embedder.arm();
    const rebuild = api['index.sync']({ force: true });
    await embedder.reached;
    // The rebuild is held at the gate: this search must not wait for it.
    const res = await api['search.query']({ query: 'a1b2c3d' });
    expect(res.results[0]?.path).toBe('memory/2024-05-08.md');
    expect(res.warnings.join('\n')).toMatch(/being rebuilt/);
    embedder.release();
    await expect(rebuild).resolves.toMatchObject({ full: true });
  });
});
