/**
 * A search hit shows the lines that answer (issue 37): each with its line number, the query's
 * terms marked, context lines apart from matches, "…" where lines are left out, and a control
 * that opens the whole passage; a hit without picked lines shows its snippet as before.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SearchResult } from '../../shared/types/search';
import { queryTerms } from '../../renderer/src/pages/search/highlight';
import { pickedRows, ResultText } from '../../renderer/src/pages/search/ResultText';

const base: SearchResult = {
  path: 'memory/2026-11-03.md',
  startLine: 10,
  endLine: 24,
  score: 0.8,
  snippet: '## Infra\n- the weekly sync\n- The staging API listens on port 8443.',
  source: 'memory',
  citation: 'memory/2026-11-03.md#L10-L24',
};

const withLines: SearchResult = {
  ...base,
  lines: [
    { line: 10, text: '## Infra', score: 0, role: 'context' },
    { line: 21, text: 'The staging API listens on port 8443.', score: 0.9, role: 'match' },
    { line: 22, text: 'Its health check is /healthz on the same port.', score: 0.4, role: 'match' },
  ],
  excerpt: '## Infra\n…\nThe staging API listens on port 8443.\nIts health check is /healthz on the same port.',
};

const render = (r: SearchResult, q: string) => renderToStaticMarkup(createElement(ResultText, { r, terms: queryTerms(q), readPassage: async () => r.snippet }));

describe('picked lines in a search result', () => {
  it('shows each picked line with its number and marked terms, a gap for lines left out, and the whole-passage control', () => {
    const html = render(withLines, 'staging port');
    expect(html).toContain('aria-label="Lines that answer, from memory/2026-11-03.md#L10-L24"');
    // Line numbers, in order, each beside its text.
    expect([...html.matchAll(/<span class="picked-ln">L(\d+)<\/span>/g)].map((m) => Number(m[1]))).toEqual([10, 21, 22]);
    expect(html).toMatch(/data-line="21"><span class="picked-ln">L21<\/span><span class="picked-text">The <mark>staging<\/mark> API listens on <mark>port<\/mark> 8443\.<\/span>/);
    // The heading is context, the answers are matches; "…" stands for lines 11–20.
    expect(html).toContain('class="picked-line picked-context" data-line="10"');
    expect(html).toContain('class="picked-line picked-match" data-line="22"');
    expect(html.match(/class="picked-gap"[^>]*>…<\/li>/g)).toHaveLength(1);
    expect(html.indexOf('picked-gap')).toBeGreaterThan(html.indexOf('data-line="10"'));
    expect(html.indexOf('picked-gap')).toBeLessThan(html.indexOf('data-line="21"'));
    // The snippet is not shown beside them; the whole passage is one click away.
    expect(html).not.toContain('result-snippet');
    expect(html).toMatch(/<button type="button" class="link passage-toggle" aria-expanded="false" aria-controls="[^"]+">Show whole passage<\/button>/);
  });

  it('falls back to the snippet when the engine picked no lines', () => {
    const html = render(base, 'staging port');
    expect(html).toContain('<pre class="result-snippet">');
    expect(html).toContain('<mark>staging</mark>');
    expect(html).not.toContain('picked-lines');
    expect(html).not.toContain('Show whole passage');
  });

  it('puts a gap only where line numbers jump', () => {
    const rows = pickedRows([
      { line: 5, text: 'b', score: 1, role: 'match' },
      { line: 4, text: 'a', score: 0, role: 'context' },
      { line: 9, text: 'c', score: 1, role: 'match' },
    ]);
    expect(rows.map((r) => (r.kind === 'gap' ? '…' : r.line.line))).toEqual([4, 5, '…', 9]);
  });
});
