/**
 * "Yesterday" in the user's zone (issue 38, a new machine): daily notes are named by the
 * user's calendar day, so a relative date in a query counts from that day, not UTC's. In
 * Chatham (UTC+12:45 in June) 20:00 UTC on 1 June is 08:45 on 2 June: "yesterday" is 1 June.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFixture } from '../helpers/memory-fixture';

const zone = process.env.TZ;
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

const notes: Record<string, string> = {
  'workspace/memory/2024-05-31.md': '# 2024-05-31\n\nDecision: the offsite goes to Porto, the offsite budget is approved.\n',
  'workspace/memory/2024-06-01.md': '# 2024-06-01\n\nDecided the hotel for the offsite.\n',
};

describe('relative dates in the system zone', () => {
  it('"yesterday" is the day before the local day, where UTC is still a day behind', async () => {
    process.env.TZ = 'Pacific/Chatham';
    const fx = memoryFixture(notes);
    const idx = fx.open({ now: () => new Date('2024-06-01T20:00:00Z') });
    await idx.sync();
    const res = await idx.search({ query: 'what did we decide yesterday about the offsite', minScore: 0 });
    expect(res.results.map((r) => r.path)).toEqual(['memory/2024-06-01.md', 'memory/2024-05-31.md']);
    // Without the time word, the note that matches the words better comes first.
    const plain = await idx.search({ query: 'what did we decide about the offsite', minScore: 0 });
    expect(plain.results[0]?.path).toBe('memory/2024-05-31.md');
    await idx.dispose();
  });
});
