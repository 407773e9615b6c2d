/**
 * Search snippets (issue 14 item 10): whole lines, always the whole line of the match (a
 * snippet cut mid-line showed half a sentence), context around it as fits, and only a line
 * longer than the snippet is cut — around the match, with an ellipsis on each cut side.
 */
import { describe, expect, it } from 'vitest';
import { makeSnippet, SNIPPET_MAX } from '../../electron/engine/search/snippet';

/** Every line of the snippet, without the ellipsis marks, is a whole line of the chunk. */
function wholeLines(snippet: string, chunk: string): boolean {
  const lines = new Set(chunk.split('\n'));
  return snippet
    .split('\n')
    .filter((l) => l !== '…')
    .every((l) => lines.has(l));
}

describe('search snippets', () => {
  it('include the whole matching line, start and end on line boundaries', () => {
    const match = 'We decided to move the nightly backups to restic on the NAS because rsync kept failing silently.';
    const before = Array.from({ length: 30 }, (_, i) => `- note ${i}: the quick brown fox jumps over the lazy dog`);
    const after = Array.from({ length: 30 }, (_, i) => `- later ${i}: nothing to do with storage at all, only filler`);
    const chunk = [...before, match, ...after].join('\n');
    const s = makeSnippet(chunk, 'restic');
    expect(s.length).toBeLessThanOrEqual(SNIPPET_MAX);
    expect(s.split('\n')).toContain(match);
    expect(wholeLines(s, chunk)).toBe(true);
    // Lines were left out on both sides: each side is marked.
    expect(s.startsWith('…\n')).toBe(true);
    expect(s.endsWith('\n…')).toBe(true);
  });

  it('a match near the start keeps the chunk start and cuts at a line end', () => {
    const chunk = ['# Deploy', 'Deployed commit a1b2c3d to production.', ...Array.from({ length: 40 }, (_, i) => `filler line number ${i} with some words`)].join('\n');
    const s = makeSnippet(chunk, 'a1b2c3d');
    expect(s.startsWith('# Deploy\nDeployed commit a1b2c3d to production.\n')).toBe(true);
    expect(s.endsWith('\n…')).toBe(true);
    expect(wholeLines(s, chunk)).toBe(true);
  });

  it('a matching line longer than the snippet is cut around the match, an ellipsis on each side', () => {
    const long = `${'alpha '.repeat(200)}ECONNREFUSED on port 5432${' omega'.repeat(200)}`;
    const chunk = `intro\n${long}\noutro`;
    const s = makeSnippet(chunk, 'ECONNREFUSED');
    expect(s.length).toBeLessThanOrEqual(SNIPPET_MAX);
    expect(s).toContain('ECONNREFUSED on port 5432');
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s).not.toContain('intro');
  });

  it('no match: whole lines from the start; never splits a surrogate pair', () => {
    const chunk = Array.from({ length: 60 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    const s = makeSnippet(chunk, 'zzz');
    expect(s.startsWith('line 0 ')).toBe(true);
    expect(wholeLines(s, chunk)).toBe(true);
    const emoji = makeSnippet('😀'.repeat(500), 'x');
    expect(emoji.length).toBeLessThanOrEqual(SNIPPET_MAX);
    expect(() => encodeURIComponent(emoji)).not.toThrow();
    expect(makeSnippet('short', 'x')).toBe('short');
  });
});
