/**
 * Issue 13 (lines per query): the lines a result cites. Trimmed, a daily note's first chunk
 * cites its talk without the `# date` / `## Session` heading block; folded, two overlapping
 * chunks of one note are one result citing their union, and the freed place goes to the next
 * file. Through a real index (temp dir, real SQLite/FTS5).
 */
import { describe, expect, it } from 'vitest';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { foldRanges, MAX_FOLDED, trimmedRange } from '../../electron/engine/search/ranges';

const talk = Array.from({ length: 14 }, (_, i) => `**Nate:** turn ${i}: the turtles got a new tank and the pottery kiln was fired again.`).join('\n');
const files: Record<string, string> = {
  // Lines 1–4 are the heading block, 5–18 the talk, 19 blank, 20 the next session's heading.
  'workspace/memory/2026-05-01.md': `# 2026-05-01\n\n## Session 1\n\n${talk}\n\n## Session 2\n\n**Joanna:** an unrelated line.\n`,
  'workspace/memory/2026-06-12.md': '# 2026-06-12\n\n## Session 3\n\n**Joanna:** Nate showed me the turtles and the pottery kiln.\n',
  'workspace/memory/2026-07-03.md': '# 2026-07-03\n\n**Joanna:** groceries: rice, lentils, coffee.\n',
};

const small = (ranges: 'folded' | 'trimmed' | 'chunks') =>
  settingsWith((s) => {
    s.chunking.tokens = 120;
    s.chunking.overlap = 30;
    s.query.hybrid.spread = 1;
    s.query.hybrid.ranges = ranges;
  });

async function search(ranges: 'folded' | 'trimmed' | 'chunks') {
  const fx = memoryFixture(files, small(ranges));
  const idx = fx.open();
  await idx.sync();
  const res = await idx.search({ query: 'turtles pottery kiln', maxResults: 3, minScore: 0 });
  await idx.dispose();
  return res.results;
}

describe('cited line ranges', () => {
  it('chunks: each chunk cites its own lines, heading block included, and overlapping chunks of one note take two places', async () => {
    const r = await search('chunks');
    expect(r.some((x) => x.path === 'memory/2026-05-01.md' && x.startLine === 1)).toBe(true);
    const sameNote = r.filter((x) => x.path === 'memory/2026-05-01.md');
    expect(sameNote.length).toBeGreaterThanOrEqual(2);
  });

  it('trimmed: no result cites a blank or heading line at its edges', async () => {
    const r = await search('trimmed');
    for (const x of r) {
      const text = files[`workspace/${x.path}`]!.split('\n');
      expect(text[x.startLine - 1]!.startsWith('**'), `${x.citation} starts at "${text[x.startLine - 1]}"`).toBe(true);
      expect(text[x.endLine - 1]!.startsWith('**'), `${x.citation} ends at "${text[x.endLine - 1]}"`).toBe(true);
    }
    // The chunk that cites lines 1–9 as indexed cites 5–9: the talk without its heading block.
    const first = r.find((x) => x.path === 'memory/2026-05-01.md' && x.startLine === 5)!;
    expect(first.citation).toBe(`memory/2026-05-01.md#L5-L${first.endLine}`);
  });

  it('folded: the overlapping chunks of the note become results that share no line, and the freed places go to the other note', async () => {
    const chunks = await search('chunks');
    const r = await search('folded');
    const note = r.filter((x) => x.path === 'memory/2026-05-01.md');
    expect(note.length).toBeLessThan(chunks.filter((x) => x.path === 'memory/2026-05-01.md').length);
    const lines = note.flatMap((x) => Array.from({ length: x.endLine - x.startLine + 1 }, (_, i) => x.startLine + i));
    expect(new Set(lines).size).toBe(lines.length);
    expect(Math.min(...lines)).toBe(5);
    expect(r.map((x) => x.path)).toContain('memory/2026-06-12.md');
  });
});

describe('trimmedRange / foldRanges', () => {
  it('trims only the edges, keeps a chunk of nothing but headings, and leaves text that does not map line for line', () => {
    expect(trimmedRange('# d\n\n## S\n\n**A:** x\n\n**B:** y\n\n## Next', 1, 9)).toEqual([5, 7]);
    expect(trimmedRange('# d\n\n## S', 10, 12)).toEqual([10, 12]);
    // Text that does not hold one line per cited line (a hard-split long line) keeps its range.
    expect(trimmedRange('# a heading\n\nbody', 3, 3)).toEqual([3, 3]);
  });

  it('folds touching ranges of one file into the better one, and a widened range absorbs a later one it now touches', () => {
    const r = (path: string, startLine: number, endLine: number, id: number) => ({ path, startLine, endLine, id });
    const folded = foldRanges([r('a', 10, 20, 1), r('b', 1, 5, 2), r('a', 30, 40, 3), r('a', 21, 29, 4), r('c', 1, 2, 5)], 4);
    expect(folded).toEqual([r('a', 10, 40, 1), r('b', 1, 5, 2), r('c', 1, 2, 5)]);
    // A run of touching chunks (a long session, each overlapping the next) is not one result
    // citing the whole file: each result holds at most MAX_FOLDED + 1 chunks, no line twice.
    const run = Array.from({ length: 12 }, (_, i) => r('s', 1 + i * 8, 10 + i * 8, i));
    const capped = foldRanges(run, 6);
    expect(capped.length).toBeGreaterThan(1);
    for (const x of capped) expect(x.endLine - x.startLine + 1).toBeLessThanOrEqual((MAX_FOLDED + 1) * 10);
    const cited = capped.flatMap((x) => Array.from({ length: x.endLine - x.startLine + 1 }, (_, i) => x.startLine + i));
    expect(new Set(cited).size).toBe(cited.length);
    // Not touching (a gap of one line) stays apart.
    expect(foldRanges([r('a', 1, 5, 1), r('a', 7, 9, 2)], 6)).toHaveLength(2);
  });
});
