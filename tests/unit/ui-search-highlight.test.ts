/** Search results mark the query's terms in the snippet: words, phrases, identifiers and CJK. */
import { describe, expect, it } from 'vitest';
import { isValidElement, type ReactNode } from 'react';
import { highlight, queryTerms } from '../../renderer/src/pages/search/highlight';

/** The marked parts of a highlighted snippet. */
function marked(nodes: ReactNode[]): string[] {
  return nodes.filter(isValidElement).map((n) => String((n.props as { children: unknown }).children));
}

describe('search term highlighting', () => {
  it('marks every occurrence of the words, case-insensitively, skipping stop words', () => {
    const terms = queryTerms('when did we move the Runner');
    expect(terms).toEqual(['Runner', 'move']);
    expect(marked(highlight('Moved the runner to ci-runner-03; the RUNNER works.', terms))).toEqual(['Move', 'runner', 'runner', 'RUNNER']);
  });

  it('matches at the start of words, not inside them', () => {
    expect(marked(highlight('Review the migrations for any blocker lock.', queryTerms('migration lock')))).toEqual(['migration', 'lock']);
  });

  it('keeps identifiers and quoted phrases whole, longest first', () => {
    const terms = queryTerms('"reserve floor" agents.defaults.compaction.reserveTokensFloor 9f2c4e1a7b');
    expect(terms[0]).toBe('agents.defaults.compaction.reserveTokensFloor');
    const text = 'Set agents.defaults.compaction.reserveTokensFloor; tagged 9f2c4e1a7b; reserve floor raised.';
    expect(marked(highlight(text, terms))).toEqual(['agents.defaults.compaction.reserveTokensFloor', '9f2c4e1a7b', 'reserve floor']);
  });

  it('marks CJK characters one by one and leaves text without matches alone', () => {
    expect(marked(highlight('决定：索引文件放在 cairn/index', queryTerms('索引')))).toEqual(['索', '引']);
    expect(highlight('nothing here', queryTerms('zebra'))).toEqual(['nothing here']);
    expect(highlight('text with (parens) and [brackets]', queryTerms('(parens)'))).toHaveLength(3);
  });
});
