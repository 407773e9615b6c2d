/**
 * The KNN worker thread: it answers what the in-process vec0 query answers (the same chunks
 * in the same order, cosines within 10⁻⁵ once it answers from its in-memory copy), follows
 * the index when a sync adds, edits or deletes notes and when a rebuild replaces the file,
 * and a MemoryIndex uses it only from its second search on (a one-shot CLI search never
 * starts it) with unchanged results.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Db } from '../../electron/engine/index/db';
import { removeDbFiles } from '../../electron/engine/index/reindex';
import { vec0Candidates, type Candidate } from '../../electron/engine/search/candidates';
import { startKnnWorker } from '../../electron/engine/search/knn-worker';
import { knnWorkerReady } from '../../electron/engine/search/index-search';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture } from '../helpers/memory-fixture';
import { writeTree } from '../helpers/tmp';
import { unpackText } from '../../electron/engine/index/chunk-text';

const notes = {
  'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\n',
  'workspace/memory/2024-01-10.md': '# Deploy\n\nDeployed commit a1b2c3d to production after the outage.\n',
  'workspace/memory/2024-05-20.md': '# Budget\n\nThe Q3 budget review moved to Thursday.\nWe decided to migrate the database to Postgres.\n',
  'workspace/memory/2024-05-28.md': '# Database\n\nDecision: migrate the database to Postgres in June.\n',
  'workspace/memory/garden.md': '# Garden\n\nTomatoes need watering every morning.\n',
};
const all = { sources: ['memory' as const] };

/**
 * `got` is vec0's answer up to the copy's rounding: the same cosines rank by rank, and each
 * chunk's own cosine is vec0's for that chunk (so equal cosines may come in either order).
 */
function expectSameCandidates(got: Candidate[], db: Db, v: Float32Array, limit: number): void {
  const want = vec0Candidates(db, v, limit, all);
  expect(got.length).toBe(want.length);
  got.forEach((c, i) => expect(Math.abs(c.raw - want[i]!.raw)).toBeLessThan(1e-5));
  const exact = new Map(vec0Candidates(db, v, 1000, all).map((c) => [c.id, c.raw]));
  for (const c of got) expect(Math.abs(c.raw - exact.get(c.id)!)).toBeLessThan(1e-5);
}

describe('KNN worker', () => {
  it('answers exactly as the in-process vec0 query, and follows a rebuilt (replaced) index file', async () => {
    const fx = memoryFixture(notes);
    const emb = new FakeEmbedder();
    let idx = fx.open({ embedder: emb });
    await idx.sync();
    const worker = await startKnnWorker(fx.indexFile);
    try {
      const { db } = openDatabase(fx.indexFile, { readonly: true });
      // Answers come from vec0 itself while the copy loads, then from the copy.
      const [first] = await emb.embed(['deploy production']);
      expectSameCandidates(await worker.query(first!, 3, all), db, first!, 3);
      expect(await worker.loaded()).toBe(true);
      for (const q of ['deploy production', 'database Postgres', 'tomatoes morning']) {
        const [v] = await emb.embed([q]);
        expectSameCandidates(await worker.query(v!, 3, all), db, v!, 3);
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

  it('follows a sync that adds, rewrites and deletes notes while it answers from its copy', async () => {
    const fx = memoryFixture(notes);
    const emb = new FakeEmbedder();
    const idx = fx.open({ embedder: emb });
    await idx.sync();
    const worker = await startKnnWorker(fx.indexFile);
    const { db } = openDatabase(fx.indexFile, { readonly: true });
    const nearest = async (q: string) => {
      const [v] = await emb.embed([q]);
      const got = await worker.query(v!, 2, all);
      expectSameCandidates(got, db, v!, 2);
      const row = db.prepare('SELECT path, text FROM chunks WHERE id = ?').get(got[0]!.id) as { path: string; text: Buffer };
      return { path: row.path, text: unpackText(row.text) };
    };
    try {
      expect(await worker.loaded()).toBe(true);
      expect((await nearest('deployed commit production outage')).path).toBe('memory/2024-01-10.md');
      // The note indexed last holds the highest chunk ids: rewriting it replaces exactly those
      // chunks, so a store that handed the same ids out again would leave the copy stale.
      const last = db.prepare('SELECT path FROM chunks ORDER BY id DESC LIMIT 1').pluck().get() as string;
      expect(last).not.toBe('memory/2024-01-10.md');
      fs.writeFileSync(path.join(fx.workspace, last), '# Sailing\n\nThe catamaran regatta starts at the harbour on Sunday.\n');
      await idx.sync();
      expect((await nearest('catamaran regatta harbour')).text).toContain('catamaran regatta');
      writeTree(fx.root, { 'workspace/memory/2024-06-01.md': '# Bikes\n\nBought a cycling helmet and bike lights.\n' });
      fs.rmSync(path.join(fx.workspace, 'memory/2024-01-10.md'));
      await idx.sync();
      expect((await nearest('catamaran regatta harbour')).text).toContain('catamaran regatta');
      expect((await nearest('cycling helmet bike lights')).path).toBe('memory/2024-06-01.md');
      expect((await nearest('deployed commit production outage')).path).not.toBe('memory/2024-01-10.md');
    } finally {
      db.close();
      await worker.close();
      await idx.dispose();
    }
  });

  it("loads vec0's live vectors only: chunks deleted before the load stay gone", async () => {
    const fx = memoryFixture(notes);
    const emb = new FakeEmbedder();
    const idx = fx.open({ embedder: emb });
    await idx.sync();
    fs.rmSync(path.join(fx.workspace, 'memory/2024-05-20.md'));
    fs.writeFileSync(path.join(fx.workspace, 'MEMORY.md'), '# Preferences\n\nThe user prefers light mode now.\n');
    await idx.sync();
    const worker = await startKnnWorker(fx.indexFile);
    const { db } = openDatabase(fx.indexFile, { readonly: true });
    try {
      expect(await worker.loaded()).toBe(true);
      for (const q of ['budget review Thursday', 'light mode', 'dark mode vim']) {
        const [v] = await emb.embed([q]);
        const got = await worker.query(v!, 50, all);
        expect(got.map((c) => c.id).sort()).toEqual(vec0Candidates(db, v!, 50, all).map((c) => c.id).sort());
        expectSameCandidates(got, db, v!, 50);
      }
    } finally {
      db.close();
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
    // The same results; scores may differ in the sixth decimal (the copy's rounding).
    const scores = (r: typeof first.results) => r.map((x) => x.score);
    const rest = (r: typeof first.results) => r.map(({ score: _s, explain: _e, ...x }) => x);
    expect(rest(again.results)).toEqual(rest(first.results));
    scores(again.results).forEach((x, i) => expect(x).toBeCloseTo(scores(first.results)[i]!, 5));
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
