/**
 * Issue 13 (multi-hop): `query.hybrid.spread` gives a close-scoring result from a file not
 * shown yet the slot a second chunk of an already-shown file would take, through a real
 * index (temp dir, real SQLite/FTS5).
 */
import { describe, expect, it } from 'vitest';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { spreadOrder } from '../../electron/engine/search/spread';

// One long day repeating the query's words (chunked into several chunks) and a second day
// that mentions them once: BM25 fills the top slots with the long day.
const longDay = Array.from({ length: 12 }, (_, i) => `Line ${i}: talked about the pottery class and the kiln firing schedule again.`).join('\n');
const files: Record<string, string> = {
  'workspace/memory/2026-05-01.md': `# 2026-05-01\n\n${longDay}\n`,
  'workspace/memory/2026-06-12.md': '# 2026-06-12\n\nSigned up for the pottery class in the autumn; the kiln is new.\n',
  'workspace/memory/2026-07-03.md': '# 2026-07-03\n\nGroceries: rice, lentils, coffee.\n',
};

describe('spreading results over files', () => {
  it('with spread off, the top 2 are both from the long day; with spread on, the other day gets a slot', async () => {
    const small = (spread: number) =>
      settingsWith((s) => {
        s.chunking.tokens = 64;
        s.chunking.overlap = 0;
        s.query.hybrid.spread = spread;
        // Chunk ranges as indexed: folded, the long day's touching chunks would be one result.
        s.query.hybrid.ranges = 'chunks';
      });
    const off = memoryFixture(files, small(1));
    const a = off.open();
    await a.sync();
    const plain = await a.search({ query: 'pottery class kiln', maxResults: 2, minScore: 0 });
    expect(plain.results.map((r) => r.path)).toEqual(['memory/2026-05-01.md', 'memory/2026-05-01.md']);
    await a.dispose();

    const on = memoryFixture(files, small(0.5));
    const b = on.open();
    await b.sync();
    const spread = await b.search({ query: 'pottery class kiln', maxResults: 2, minScore: 0 });
    expect(new Set(spread.results.map((r) => r.path))).toEqual(new Set(['memory/2026-05-01.md', 'memory/2026-06-12.md']));
    await b.dispose();
  });

  it('a clearly better hit keeps its place (a new file must score at least ratio × the best)', () => {
    const items = [
      { path: 'a', score: 1 },
      { path: 'a', score: 0.9 },
      { path: 'b', score: 0.3 },
    ];
    expect(spreadOrder(items, 2, 0.8).map((x) => x.score)).toEqual([1, 0.9, 0.3]);
    expect(spreadOrder(items, 2, 0.3).map((x) => x.score)).toEqual([1, 0.3, 0.9]);
  });
});
