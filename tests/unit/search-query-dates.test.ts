/**
 * Dates written out in a query (search/query-dates.ts, issue 13 item 2): the span of notes a
 * question like "What movie did Joanna watch on 1 May, 2022?" names, and the search preferring
 * the note written in it over an equal match from another month.
 */
import { describe, expect, it } from 'vitest';
import { absoluteSpan, querySpan } from '../../electron/engine/search/query-dates';
import { memoryFixture } from '../helpers/memory-fixture';

describe('written-out dates in a query', () => {
  it('resolves a day (either order) to the day before it through the following week', () => {
    for (const q of ['What movie did Joanna watch on 1 May, 2022?', 'what did we watch on May 1, 2022', 'the 1st of May 2022']) {
      expect(absoluteSpan(q)).toMatchObject({ since: '2022-04-30', before: '2022-05-10' });
    }
  });

  it('resolves a month and year to the month and a week after it', () => {
    expect(absoluteSpan('Where did Joanna travel to in July 2022?')).toMatchObject({ since: '2022-07-01', before: '2022-08-09', phrase: 'july 2022' });
    expect(absoluteSpan('in the beginning of November 2022')).toMatchObject({ since: '2022-11-01', before: '2022-12-09' });
    expect(absoluteSpan('plans for Dec 2023')).toMatchObject({ since: '2023-12-01', before: '2024-01-09' });
  });

  it('names no span without a year, for an impossible day, or for "may" the verb', () => {
    expect(absoluteSpan('Which outdoor spot did Joanna visit in May?')).toBeNull();
    expect(absoluteSpan('what happened on 31 February, 2022')).toMatchObject({ since: '2022-02-01' }); // the month still stands
    expect(absoluteSpan('I may 2 more things')).toBeNull();
  });

  it('prefers a relative date, counted from the anchor', () => {
    expect(querySpan('what did I decide last week about May 2022', new Date('2024-06-05T10:00:00Z'))).toMatchObject({ since: '2024-05-27', before: '2024-06-03' });
  });

  it('ranks the note dated in the named span above an equal match of another month', async () => {
    const fx = memoryFixture({
      'workspace/memory/2022-03-14.md': '# Movies\n\nJoanna watched a movie with her sister.\n',
      'workspace/memory/2022-05-02.md': '# Movies\n\nJoanna watched a movie with her sister.\n',
    });
    const idx = fx.open();
    await idx.sync();
    const res = await idx.search({ query: 'What movie did Joanna watch on 1 May, 2022?', minScore: 0 });
    expect(res.results.map((r) => r.path)).toEqual(['memory/2022-05-02.md', 'memory/2022-03-14.md']);
    await idx.dispose();
  });
});
