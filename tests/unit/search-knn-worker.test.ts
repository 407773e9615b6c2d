/**
 * The KNN worker thread: it answers exactly what the in-process vec0 query answers, follows
 * the index when a rebuild replaces the file, and a MemoryIndex uses it only from its second
 * search on (a one-shot CLI search never starts it) with unchanged results.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/engine/index/db';
import { removeDbFiles } from '../../electron/engine/index/reindex';
import { vec0Candidates } from '../../electron/engine/search/candidates';
import { startKnnWorker } from '../../electron/engine/search/knn-worker';
import { knnWorkerReady } from '../../electron/engine/search/index-search';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture } from '../helpers/memory-fixture';
import { writeTree } from '../helpers/tmp';

const notes = {
  'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\n',
  'workspace/memory/2024-01-10.md': '# Deploy\n\nDeployed commit a1b2c3d to production after the outage.\n',
  'workspace/memory/2024-05-20.md': '# Budget\n\nThe Q3 budget review moved to Thursday.\nWe decided to migrate the database to Postgres.\n',
  'workspace/memory/2024-05-28.md': '# Database\n\nDecision: migrate the database to Postgres in June.\n',
  'workspace/memory/garden.md': '# Garden\n\nTomatoes need watering every morning.\n',
};
const all = { sources: ['memory' as const] };

describe('KNN worker', () => {
  it('answers exactly as the in-process vec0 query, and follows a rebuilt (replaced) index file', async () => {
    const fx = memoryFixture(notes);
    const emb = new FakeEmbedder();
    let idx = fx.open({ embedder: emb });
    await idx.sync();
    const worker = await startKnnWorker(fx.indexFile);
    try {
      const { db } = openDatabase(fx.indexFile, { readonly: true });
      for (const q of ['deploy production', 'database Postgres', 'tomatoes morning']) {
        const [v] = await emb.embed([q]);
        expect(await worker.query(v!, 3, all)).toEqual(vec0Candidates(db, v!, 3, all));
      }
      db.close();

      // The index file is deleted and built anew (a new file, as a rebuild swapped in by
      // rename makes) after a new note: the worker must answer from the new file.
      await idx.dispose();
      removeDbFiles(fx.indexFile);
      writeTree(fx.root, { 'workspace/memory/2024-06-01.md': '# Bikes\n\nBought a cycling helmet and bike lights.\n' });
      idx = fx.open({ embedder: emb });
      await idx.sync();
      const [v] = await emb.embed(['cycling helmet bike lights']);
      const got = await worker.query(v!, 1, all);
      const fresh = openDatabase(fx.indexFile, { readonly: true }).db;
      const path = fresh.prepare('SELECT path FROM chunks WHERE id = ?').pluck().get(got[0]!.id);
      fresh.close();
      expect(path).toBe('memory/2024-06-01.md');
    } finally {
      await worker.close();
      await idx.dispose();
    }
  });

  it('a MemoryIndex starts it from the second search on, and results do not change', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder(), knnWorkerMinChunks: 0 });
    await idx.sync();
    const first = await idx.search({ query: 'migrate the database', minScore: 0, explain: true });
    expect(await knnWorkerReady(idx)).toBe(false); // one search: no worker
    await idx.search({ query: 'dark mode', minScore: 0 });
    expect(await knnWorkerReady(idx)).toBe(true);
    const again = await idx.search({ query: 'migrate the database', minScore: 0, explain: true });
    expect(again.mode).toBe('hybrid');
    expect(again.results).toEqual(first.results);
    await idx.dispose();
  });

  it('a small index never starts one', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    for (const q of ['a', 'b', 'c']) await idx.search({ query: `dark mode ${q}` });
    expect(await knnWorkerReady(idx)).toBe(false);
    await idx.dispose();
  });
});
