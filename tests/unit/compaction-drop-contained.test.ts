/**
 * `dropContained` (the extract's identifier list, compaction/identifiers.ts) through its
 * substring index gives exactly what keeping the longest first and dropping what they contain
 * gave — checked against that rule, written out here, on random sets of nested identifiers.
 * (It was quadratic: 13.5 s for a 100 MB session's 50k identifiers; see docs/benchmarks.md.)
 */
import { describe, expect, it } from 'vitest';
import { dropContained } from '../../electron/engine/compaction/identifiers';

/** The rule as it was implemented before: longest first, dropped when a kept one contains it. */
function reference(ids: string[]): string[] {
  const sorted = [...ids].sort((a, b) => b.length - a.length);
  const keep = new Set<string>();
  for (const s of sorted) if (![...keep].some((k) => k.includes(s))) keep.add(s);
  return ids.filter((s) => keep.has(s));
}

describe('dropContained', () => {
  it('drops exactly the identifiers a longer one contains, keeping order and duplicates', () => {
    expect(dropContained(['api.example.com', 'https://api.example.com/v1', 'src/a.ts', 'a.ts', 'src/a.ts'])).toEqual(['https://api.example.com/v1', 'src/a.ts', 'src/a.ts']);
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 300; round++) {
      const bases = Array.from({ length: 5 }, () => Array.from({ length: 3 + Math.floor(rnd() * 12) }, () => 'ab/.c1'[Math.floor(rnd() * 6)]).join(''));
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) {
        const b = bases[Math.floor(rnd() * bases.length)]!;
        const a = Math.floor(rnd() * b.length);
        const piece = rnd() < 0.5 ? b.slice(a, a + 3 + Math.floor(rnd() * 10)) : b;
        if (piece.length >= 3) ids.push(piece);
      }
      expect(dropContained(ids)).toEqual(reference(ids));
    }
  });
});
