/**
 * The keyword side's early stop (issue 33, search/lexical.ts): a word in more chunks than the
 * postings budget is not ranked over all of its matches. BM25 ranks its newest tier, and in
 * a hybrid search the vector side's candidates get their keyword scores in a second stage, so
 * an old chunk the vectors find keeps its keyword score. The budget is lowered here so that
 * six notes exceed it (at its default it takes ~20k chunks).
 */
import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { openDatabase } from '../../electron/engine/index/db';
import { keywordSide, lexicalCandidates } from '../../electron/engine/search/lexical';
import { hybridSearch, type HybridOptions } from '../../electron/engine/search/hybrid';

// Chunk ids follow the paths on a first sync: 01 is the oldest chunk, 06 the newest.
const notes: Record<string, string> = {
  'workspace/memory/2024-01-01.md': '# Photos\n\nbackup backup backup of the photo library\n',
  'workspace/memory/2024-01-02.md': '# Garden\n\nwatered the tomatoes, then a quick backup of the laptop before the trip, the garden hose leaks again\n',
  'workspace/memory/2024-01-03.md': '# Car\n\nthe car needs new tyres and a backup camera fixed by the mechanic in town next week\n',
  'workspace/memory/2024-01-04.md': '# Server\n\nnightly backup of the server failed, the backup disk is full\n',
  'workspace/memory/2024-01-05.md': '# Books\n\nstarted a novel about a lighthouse keeper; keep a backup copy of the reading list\n',
  'workspace/memory/2024-01-06.md': '# Music\n\npractised the piano for an hour and made a backup of the recordings on the shared drive\n',
};

/** Every note has "backup": above a budget of 3 postings, only the newest `tier` are ranked. */
const stop = { postings: 3, tier: 3 };
const lexical = { calibration: 'relative' as const, stemWeight: 0.5 };

async function indexed(embedder: FakeEmbedder | null = null) {
  const fx = memoryFixture(notes, settingsWith((s) => (s.sources = ['memory'])));
  const idx = fx.open({ embedder });
  await idx.sync();
  await idx.dispose();
  const { db } = openDatabase(fx.indexFile, { readonly: true });
  const day = (id: number) => (db.prepare('SELECT path FROM chunks WHERE id = ?').pluck().get(id) as string).slice(7, 17);
  return { db, day };
}

describe('keyword side that stops early', () => {
  it('ranks a common word only over its newest matches, best BM25 first', async () => {
    const { db, day } = await indexed();
    const all = lexicalCandidates(db, 'backup', 10, { sources: ['memory'] }, lexical);
    // Ranked over every match, the photo note (three times "backup" in a short chunk) wins.
    expect(all.map((c) => day(c.id))[0]).toBe('2024-01-01');
    expect(all).toHaveLength(6);

    const side = keywordSide(db, 'backup', 2, { sources: ['memory'] }, { ...lexical, earlyStop: stop });
    // The newest three notes are ranked by BM25, not by age: the server note ("backup"
    // twice) first, then the shorter of the other two; `limit` (2) caps what comes back.
    expect(side.candidates.map((c) => day(c.id))).toEqual(['2024-01-04', '2024-01-05']);
    expect(side.rescore).toBeDefined();
    // A chunk among given ids (the vector side's) gets its keyword score in the second stage.
    const photoId = all[0]!.id;
    const rescored = side.rescore!([photoId, 999_999]);
    expect(rescored[0]).toMatchObject({ id: photoId, score: 1 });
    expect(rescored.map((c) => day(c.id))).toEqual(['2024-01-01', '2024-01-04', '2024-01-05']);
    db.close();
  });

  it('answers by stems from the newest tier when the exact word is nowhere', async () => {
    const { db, day } = await indexed();
    // "backups" is in no note; its stem "backup" is in all six, over the budget of 3.
    const side = keywordSide(db, 'backups', 10, { sources: ['memory'] }, { ...lexical, earlyStop: stop });
    expect(side.candidates.every((c) => c.stemOnly)).toBe(true);
    expect(side.candidates.map((c) => day(c.id))).toEqual(['2024-01-04', '2024-01-05', '2024-01-06']);
    db.close();
  });

  it('leaves a query under the budget as it was (no second stage)', async () => {
    const { db } = await indexed();
    const side = keywordSide(db, 'tomatoes backup', 10, { sources: ['memory'] }, { ...lexical, earlyStop: { postings: 7, tier: 1 } });
    expect(side.rescore).toBeUndefined();
    expect(side.candidates).toEqual(lexicalCandidates(db, 'tomatoes backup', 10, { sources: ['memory'] }, lexical));
    db.close();
  });

  it('in a hybrid search, an old chunk found by the vectors keeps its keyword score', async () => {
    const embedder = new FakeEmbedder();
    const { db } = await indexed(embedder);
    const options = (earlyStop?: HybridOptions['earlyStop']): HybridOptions => ({
      query: 'backup',
      maxResults: 1,
      minScore: 0,
      candidateMultiplier: 1,
      hybrid: true,
      weights: { vector: 0.5, text: 0.5 },
      calibration: 'relative',
      stemWeight: 0.5,
      sources: ['memory'],
      decay: { enabled: false, halfLifeDays: 30 },
      mmr: { enabled: false, lambda: 0.7 },
      explain: true,
      now: new Date('2024-02-01T00:00:00Z'),
      earlyStop,
    });
    const backend = { db, vector: 'vec0' as const, embedder };
    // The vectors' nearest chunk is the photo note (mostly "backup"), the oldest of six.
    const full = await hybridSearch(backend, options());
    const stopped = await hybridSearch(backend, options(stop));
    for (const out of [full, stopped]) {
      expect(out.mode).toBe('hybrid');
      expect(out.results.map((r) => r.path)).toEqual(['memory/2024-01-01.md']);
      expect(out.results[0]!.explain!.text).toBe(1);
    }
    db.close();
  });
});
