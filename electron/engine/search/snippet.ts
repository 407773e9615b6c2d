/**
 * Result snippets (SPEC §7): at most 700 characters of the chunk, starting at the line of
 * the first query match when the match would otherwise fall outside the window. Never cuts
 * a surrogate pair; an ellipsis marks a cut and counts toward the limit.
 */
import { queryTerms } from './fts-query';

export const SNIPPET_MAX = 700;

/** Cut `text` to at most `max` UTF-16 units at a code-point boundary. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // would split a surrogate pair
  return text.slice(0, end);
}

/** A ≤700-char snippet of `text` for `query`. */
export function makeSnippet(text: string, query: string, max = SNIPPET_MAX): string {
  if (text.length <= max) return text;
  const lower = text.toLowerCase();
  let first = -1;
  for (const term of queryTerms(query)) {
    const i = lower.indexOf(term[0] ?? '');
    if (i >= 0 && (first < 0 || i < first)) first = i;
  }
  let start = 0;
  if (first > max * 0.6) {
    // Start at the beginning of the matching line (or a little before the match).
    const lineStart = text.lastIndexOf('\n', first) + 1;
    start = first - lineStart < max * 0.5 ? lineStart : Math.max(0, first - 80);
    const c = text.charCodeAt(start);
    if (c >= 0xdc00 && c <= 0xdfff) start++; // never start on a low surrogate
  }
  const prefix = start > 0 ? '…' : '';
  const body = text.slice(start);
  if (prefix.length + body.length <= max) return prefix + body;
  return `${prefix}${clip(body, max - prefix.length - 1)}…`;
}
