/**
 * The keyword side when only the stemmed table stops early (issue 38, defect 8): the exact
 * word is in few notes, its stem in many. The stemmed table then ranks its newest tier only,
 * and an exact match older than that tier must keep its true stem score — with 0 it fell
 * below newer, weaker exact matches, and early stop reordered what every-match ranking gave.
 */
import { describe, expect, it } from 'vitest';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { openDatabase } from '../../electron/engine/index/db';
import { keywordSide, lexicalCandidates } from '../../electron/engine/search/lexical';

// Chunk ids follow the paths on a first sync: 01 is the oldest chunk, 05 the newest. The
// exact word "backup" is in 01 (three times) and 05 (once); "backups" (same stem) in 02–04.
const notes: Record<string, string> = {
  'workspace/memory/2024-01-01.md': '# Photos\n\nbackup backup backup of the photo library\n',
  'workspace/memory/2024-01-02.md': '# Garden\n\nwatered the tomatoes and checked the backups of the garden plan\n',
  'workspace/memory/2024-01-03.md': '# Car\n\nthe car needs new tyres; the mechanic keeps backups of the invoices\n',
  'workspace/memory/2024-01-04.md': '# Server\n\nthe server backups failed twice, the disk is full\n',
  'workspace/memory/2024-01-05.md': '# Books\n\na backup of the reading list\n',
};

/** The stemmed table matches all five notes (over 3): it ranks its newest 3 (03–05) only. */
const stop = { postings: 3, tier: 3 };
const lexical = { calibration: 'relative' as const, stemWeight: 0.5 };

async function indexed() {
  const fx = memoryFixture(notes, settingsWith((s) => (s.sources = ['memory'])));
  const idx = fx.open();
  await idx.sync();
  await idx.dispose();
  const { db } = openDatabase(fx.indexFile, { readonly: true });
  const day = (id: number) => (db.prepare('SELECT path FROM chunks WHERE id = ?').pluck().get(id) as string).slice(7, 17);
  return { db, day };
}

describe('keyword side whose stemmed table alone stops early', () => {
  it('ranks exact matches as every-match ranking does, each with its true stem score', async () => {
    const { db, day } = await indexed();
    const all = lexicalCandidates(db, 'backup', 10, { sources: ['memory'] }, lexical);
    const side = keywordSide(db, 'backup', 10, { sources: ['memory'] }, { ...lexical, earlyStop: stop });
    const exact = (cands: typeof all) => cands.filter((c) => !c.stemOnly).map((c) => [day(c.id), Number(c.score.toFixed(3))]);
    // Ranked over every match, the photo note (three times "backup") wins.
    expect(exact(all).map(([d]) => d)).toEqual(['2024-01-01', '2024-01-05']);
    // Stopped early, the same two exact matches in the same order and with the same scores:
    // the photo note is outside the stemmed table's newest three, yet keeps its stem score.
    expect(exact(side.candidates)).toEqual(exact(all));
    // The stemmed table did stop: of the stem-only notes only its tier (03, 04) is ranked.
    expect(side.candidates.filter((c) => c.stemOnly).map((c) => day(c.id)).sort()).toEqual(['2024-01-03', '2024-01-04']);
    db.close();
  });
});
