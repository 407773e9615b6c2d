/**
 * Issue 13: relative dates in a query ("last week", "yesterday", "3 days ago") resolved to
 * note days — against now, or against `--before` when given — and preferred in the ranking,
 * through a real index (temp dir, real SQLite/FTS5).
 */
import { describe, expect, it } from 'vitest';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { relativeSpan } from '../../electron/engine/search/dates';

// The fixture's clock: Saturday 2024-06-01. Last week = Mon 2024-05-20 … Sun 05-26.
const notes: Record<string, string> = {
  'workspace/memory/2024-04-10.md': '# 2024-04-10\n\nDecision: the offsite goes to Lisbon, budget approved for the offsite.\n',
  'workspace/memory/2024-05-22.md': '# 2024-05-22\n\nDecision: offsite moves to Porto.\n',
  'workspace/memory/2024-05-31.md': '# 2024-05-31\n\nGroceries and laundry.\n',
};

describe('relative dates', () => {
  it('resolves the usual phrases to day spans (ISO weeks start on Monday)', () => {
    const sat = new Date('2024-06-01T12:00:00Z');
    expect(relativeSpan('what did I decide last week', sat)).toMatchObject({ since: '2024-05-20', before: '2024-05-27' });
    expect(relativeSpan('what did we agree yesterday', sat)).toMatchObject({ since: '2024-05-31', before: '2024-06-01' });
    expect(relativeSpan('notes from 3 days ago', sat)).toMatchObject({ since: '2024-05-29', before: '2024-05-30' });
    expect(relativeSpan('last month', sat)).toMatchObject({ since: '2024-05-01', before: '2024-06-01' });
    expect(relativeSpan('the offsite decision', sat)).toBeNull();
  });

  it('"last week" ranks last week\'s note above an older one that matches the words better', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open();
    await idx.sync();
    const res = await idx.search({ query: 'what did we decide last week about the offsite', minScore: 0 });
    expect(res.results[0]?.path).toBe('memory/2024-05-22.md');
    await idx.dispose();

    // The same question without the time words: BM25's favourite (two "offsite") wins.
    const idx2 = fx.open();
    const plain = await idx2.search({ query: 'what did we decide about the offsite', minScore: 0 });
    expect(plain.results[0]?.path).toBe('memory/2024-04-10.md');
    await idx2.dispose();
  });

  it('counts back from --before when given, and can be turned off', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open();
    await idx.sync();
    // Asked "from" 2024-04-15: last week = 04-08 … 04-14.
    const res = await idx.search({ query: 'decision last week about the offsite', before: '2024-04-15', minScore: 0 });
    expect(res.results[0]?.path).toBe('memory/2024-04-10.md');
    await idx.dispose();

    const off = memoryFixture(notes, settingsWith((s) => (s.query.hybrid.relativeDates = false)));
    const idx2 = off.open();
    await idx2.sync();
    const r2 = await idx2.search({ query: 'what did we decide last week about the offsite', minScore: 0 });
    expect(r2.results[0]?.path).toBe('memory/2024-04-10.md');
    await idx2.dispose();
  });
});
