/**
 * Issue 13: the keyword side's rank → score calibration and the minScore cut's stated
 * reason, on small real indexes (temp dirs, real SQLite/FTS5).
 */
import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';

// A new user's memory: two notes. BM25's IDF all but vanishes on two documents.
const twoNotes: Record<string, string> = {
  'workspace/MEMORY.md': '# Me\n\nI live in Lisbon and cycle to work.\n',
  'workspace/memory/2026-11-30.md': '# Router\n\nThe new router admin password hint is "blue heron".\n',
};

describe('search score calibration', () => {
  it('an exact match in a two-note memory scores high, ranks first and passes the default minScore', async () => {
    const fx = memoryFixture(twoNotes);
    const idx = fx.open(); // keyword side only: the score is BM25's alone
    await idx.sync();
    const res = await idx.search({ query: 'router password', explain: true });
    expect(res.results[0]?.path).toBe('memory/2026-11-30.md');
    // The absolute map r/(1+r) gave ~0.000 here; the best keyword hit now scores 1.
    expect(res.results[0]!.score).toBeGreaterThan(0.5);
    expect(res.results[0]!.score).toBeGreaterThanOrEqual(fx.settings.query.minScore);
    await idx.dispose();
  });

  it('keeps BM25 spacing below the best hit: a weaker keyword match scores less than the best', async () => {
    const fx = memoryFixture({
      ...twoNotes,
      'workspace/memory/2026-11-29.md': '# Errands\n\nBought a new router cable.\n',
      // (a term in more than half of the chunks is dropped from the query as weightless)
      'workspace/memory/2026-11-28.md': '# Plants\n\nWatered the basil and the fern.\n',
    });
    const idx = fx.open();
    await idx.sync();
    const res = await idx.search({ query: 'router admin password', minScore: 0 });
    expect(res.results.map((r) => r.path).slice(0, 2)).toEqual(['memory/2026-11-30.md', 'memory/2026-11-29.md']);
    expect(res.results[0]!.score).toBe(1);
    expect(res.results[1]!.score).toBeLessThan(1);
    expect(res.results[1]!.score).toBeGreaterThan(0);
    await idx.dispose();
  });

  it('calibration "absolute" keeps the old map (the collapse the relative one fixes)', async () => {
    const fx = memoryFixture(twoNotes, settingsWith((s) => (s.query.hybrid.calibration = 'absolute')));
    const idx = fx.open();
    await idx.sync();
    const res = await idx.search({ query: 'router password', minScore: 0 });
    expect(res.results[0]?.path).toBe('memory/2026-11-30.md');
    expect(res.results[0]!.score).toBeLessThan(0.1);
    await idx.dispose();
  });
});

describe('minScore never hides a requested result silently', () => {
  it('returns fewer than asked only with a warning saying how many were held back and why', async () => {
    const fx = memoryFixture({
      ...twoNotes,
      'workspace/memory/2026-11-28.md': '# Plants\n\nWatered the basil and the fern.\n',
    });
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    const res = await idx.search({ query: 'router password', maxResults: 3, minScore: 0.9 });
    expect(res.results.length).toBeLessThan(3);
    const hidden = 3 - res.results.length;
    expect(res.warnings).toContainEqual(expect.stringMatching(new RegExp(`^${hidden} more results? scored below minScore 0\\.9`)));
    // With every candidate shown there is nothing to explain.
    const all = await idx.search({ query: 'router password', maxResults: 3, minScore: 0 });
    expect(all.results).toHaveLength(3);
    expect(all.warnings.filter((w) => w.includes('minScore'))).toEqual([]);
    await idx.dispose();
  });
});
