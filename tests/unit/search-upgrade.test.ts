/**
 * Issue 40 item 5: an index built by an older Cairn (a previous schema) answers keyword
 * searches at once while its rebuild runs beside them, instead of the first search waiting
 * for the whole rebuild. Through the engine's search service — the one the CLI, the window,
 * MCP and the plugin all call. The embedder holds the rebuild's batches at a gate the test
 * opens, so "while the rebuild runs" is an event, not a race.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { memoryRegistry } from '../../electron/engine/index/registry';
import { readIdentity, SCHEMA_VERSION } from '../../electron/engine/index/schema';
import { openDatabase } from '../../electron/engine/index/db';
import { GatedEmbedder } from '../helpers/gated-embedder';
import { PREVIOUS_SCHEMA, rewriteAsPreviousSchema } from '../helpers/old-index';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

function engineOn(stateDir: string, embedder: GatedEmbedder): Engine {
  const engine = createEngine({ stateDir, deps: { createEmbedder: async () => embedder, now: () => new Date('2024-06-01T00:00:00Z') } });
  engines.push(engine);
  return engine;
}

function schemaOf(indexFile: string): number | undefined {
  const { db } = openDatabase(indexFile, { readonly: true });
  try {
    return readIdentity(db)?.schema;
  } finally {
    db.close();
  }
}

describe('searching an index of an older schema', () => {
  it('answers keyword-only at once while the rebuild runs, then hybrid', async () => {
    const stateDir = tmpDir('cairn-upgrade-');
    writeTree(stateDir, {
      // No embedding cache: the rebuild embeds every chunk again, so it reaches the gate.
      'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { sync: { watch: false }, cache: { enabled: false } } } } }),
      'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed commit a1b2c3d to the staging gateway.\n',
      'workspace/memory/2024-05-09.md': '# Garden\n\nPlanted tomatoes along the fence.\n',
    });
    const first = engineOn(stateDir, new GatedEmbedder());
    first.ctx.reloadConfig();
    const indexFile = (await memoryRegistry(first.ctx).get('main')).opts.indexFile;
    await memoryRegistry(first.ctx).sync('main');
    await engines.pop()!.dispose();
    rewriteAsPreviousSchema(indexFile);
    expect(schemaOf(indexFile)).toBe(PREVIOUS_SCHEMA);

    // A newer Cairn opens it: the rebuild is held at the gate from its first batch.
    const embedder = new GatedEmbedder();
    embedder.arm();
    const engine = engineOn(stateDir, embedder);
    engine.ctx.reloadConfig();
    const api = createDirectClient(engine);
    const res = await api['search.query']({ query: 'a1b2c3d' });
    expect(res.results[0]?.path).toBe('memory/2024-05-08.md');
    expect(res.mode).toBe('fts-only');
    expect(res.warnings.join('\n')).toMatch(/being rebuilt/);
    expect(res.warnings.join('\n')).toMatch(/older Cairn/);
    // The rebuild was started by that search and is running: it has reached the gate.
    await embedder.reached;
    const index = await memoryRegistry(engine.ctx).get('main');
    expect(index.syncing()).toBe('rebuild');
    // A second search does not start another rebuild nor wait for this one.
    expect((await api['search.query']({ query: 'tomatoes' })).results[0]?.path).toBe('memory/2024-05-09.md');

    embedder.release();
    await index.settled();
    expect(schemaOf(indexFile)).toBe(SCHEMA_VERSION);
    const after = await api['search.query']({ query: 'a1b2c3d' });
    expect(after.mode).toBe('hybrid');
    expect(after.results[0]?.path).toBe('memory/2024-05-08.md');
    expect(after.warnings.join('\n')).not.toMatch(/rebuilt/);
  });
});
