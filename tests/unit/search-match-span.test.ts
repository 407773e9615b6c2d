/**
 * Issue 40 (lines per question): a hit cites the lines that carry its match — from the first
 * line related to the question to the last, with the turn on either side — not the unrelated
 * turns at its chunk's edges. A word in every chunk (a speaker's name) relates no line; a hit
 * whose lines say nothing on their own keeps its whole range. Through a real index (temp dir,
 * real SQLite/FTS5), keyword side only; the pure rule with line meanings beside it.
 */
import { describe, expect, it } from 'vitest';
import { memoryFixture } from '../helpers/memory-fixture';
import { matchSpan } from '../../electron/engine/search/match-span';
import { lineQuery } from '../../electron/engine/search/line-score';

const chat = (topics: string[]) => topics.map((t, i) => `**${i % 2 ? 'Bob' : 'Ann'}:** ${t}`).join('\n');
const files: Record<string, string> = {
  // Lines 1–2 the heading block, 3–14 the talk: only line 9 is about the ceramics workshop.
  'workspace/memory/2024-05-01.md': `# 2024-05-01\n\n${chat([
    'Morning Bob, did the bus come on time today?',
    'It was late again, Ann, twenty minutes in the rain.',
    'Annoying. Did you finish the tax forms for Bob senior?',
    'Mostly. The receipts from March are still missing.',
    'Check the blue folder, the receipts are usually there.',
    'Found them, thanks. Anything planned for the weekend?',
    'I signed up for a ceramics workshop at the community centre.',
    'Nice! Send me a photo of whatever you make.',
    'Will do. How is the garden doing after the frost?',
    'The tomatoes survived, the basil did not.',
    'Plant it again in June, Bob, it grows fast.',
    'Good idea. Talk later, Ann!',
  ])}\n`,
  // Other days of the same two people: Ann and Bob are in every chunk, the workshop in one.
  'workspace/memory/2024-05-02.md': `# 2024-05-02\n\n${chat(['Bob, the plumber comes at noon.', 'Thanks Ann, I will be home.'])}\n`,
  'workspace/memory/2024-05-03.md': `# 2024-05-03\n\n${chat(['Ann, the library book is overdue.', 'Returning it today, Bob.'])}\n`,
  'workspace/memory/2024-05-04.md': `# 2024-05-04\n\n${chat(['Bob, dinner at seven?', 'Sounds good, Ann.'])}\n`,
};

async function search(query: string) {
  const fx = memoryFixture(files);
  const idx = fx.open();
  await idx.sync();
  const res = await idx.search({ query, minScore: 0 });
  await idx.dispose();
  return res.results;
}

describe('a hit cites the lines that carry its match', () => {
  it('cites the turn about the question and the question it answers, with the turn before and after, not the whole talk', async () => {
    const [top] = await search('Bob ceramics workshop');
    // Before: memory/2024-05-01.md#L3-L14, the whole talk (its chunk without the heading block).
    // Line 9 holds the match, line 8 asked for it ("Anything planned for the weekend?"); 7 and
    // 10 are the turns on either side.
    expect(top).toMatchObject({ path: 'memory/2024-05-01.md', startLine: 7, endLine: 10, citation: 'memory/2024-05-01.md#L7-L10' });
    // The picked lines are the cited ones: the match and nothing outside the citation.
    expect(top!.lines?.some((l) => l.role === 'match' && l.line === 9)).toBe(true);
    for (const l of top!.lines ?? []) expect(l.line >= 7 && l.line <= 10).toBe(true);
  });

  it('a word found in every chunk relates no line: a hit matched only by a name keeps its range', async () => {
    const r = await search('Ann');
    const talk = r.find((x) => x.path === 'memory/2024-05-01.md')!;
    expect([talk.startLine, talk.endLine]).toEqual([3, 14]);
  });

  it('a line whose meaning is unknown is not cut by its words alone beside a vector side', () => {
    const lines = ['the bus was late', 'the tax forms are done', 'a ceramics workshop on Saturday', 'the receipts were in the folder', 'the garden after the frost', 'the basil did not survive', 'talk later'].map((text, i) => ({ line: 20 + i, text }));
    const q = lineQuery('ceramics workshop', () => 1, 100);
    // Known meanings far from the question: the edges go, the line on either side of the match stays.
    expect(matchSpan(lines, q, [0, 0, 0.9, 0, 0, 0, 0], false)).toEqual([21, 23]);
    // Line 24's meaning unknown (no line vector): it may relate, so it stays (and the line after it).
    expect(matchSpan(lines, q, [0, 0, 0.9, 0, Number.NaN, 0, 0], false)).toEqual([21, 25]);
    // Words alone (no vector side): judged by their words.
    expect(matchSpan(lines, q, undefined, true)).toEqual([21, 23]);
    // Nothing known beyond the words, beside a vector side: the whole range.
    expect(matchSpan(lines, q, undefined, false)).toBeNull();
  });
});
