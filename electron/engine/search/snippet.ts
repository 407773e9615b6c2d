/**
 * Result snippets (SPEC §7): at most 700 characters of the chunk, in whole lines that always
 * include the line of the first query match (a snippet cut mid-line hid the
 * match's sentence). Never cuts a surrogate pair; an ellipsis marks a cut and counts toward
 * the limit.
 */
import { queryTerms } from './fts-query';

export const SNIPPET_MAX = 700;

/** Where the earliest query term occurs in `text` (case-insensitive), or -1. */
function firstMatch(text: string, query: string): number {
  const lower = text.toLowerCase();
  let first = -1;
  for (const term of queryTerms(query)) {
    const i = lower.indexOf(term[0] ?? '');
    if (i >= 0 && (first < 0 || i < first)) first = i;
  }
  return first;
}

/** [start, end) of each line, without its newline. */
function lineSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    spans.push([start, nl]);
    start = nl + 1;
  }
  spans.push([start, text.length]);
  return spans;
}

/**
 * `text[from, to)` cut to a window of at most `max` chars around `at` (a third before, two
 * thirds after), an ellipsis on each side where `text` goes on, never splitting a surrogate
 * pair. The one cut of a long line: snippets, picked lines (lines.ts) and the recall section.
 */
export function cutAround(text: string, at: number, max: number, from = 0, to = text.length): string {
  if (to - from <= max) return text.slice(from, to);
  const budget = Math.max(1, max - 2);
  let start = Math.min(Math.max(from, at - Math.floor(budget / 3)), to - budget);
  let end = start + budget;
  const c = text.charCodeAt(start);
  if (c >= 0xdc00 && c <= 0xdfff) start++; // never start on a low surrogate
  const d = text.charCodeAt(end - 1);
  if (d >= 0xd800 && d <= 0xdbff) end--; // never end on a high surrogate
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/**
 * A ≤`max`-char snippet of `text` for `query`: whole lines, always including the whole line
 * of the first match (a half line read as a different sentence in the results), with as much
 * context around it as fits, from the chunk's start when the match is near it. Lines left
 * out are marked with an ellipsis line. Only a matching line longer than the whole snippet
 * is cut, around the match.
 */
export function makeSnippet(text: string, query: string, max = SNIPPET_MAX): string {
  if (text.length <= max) return text;
  const spans = lineSpans(text);
  const first = firstMatch(text, query);
  const at = first < 0 ? 0 : spans.findIndex(([, e]) => first <= e);
  const last = spans.length - 1;
  const line = spans[at]!;
  if (line[1] - line[0] + (at > 0 ? 2 : 0) + (at < last ? 2 : 0) > max) return cutAround(text, Math.max(first, line[0]), max, line[0], line[1]);
  // Length of lines a..b with the "…\n" / "\n…" marks for what is left out.
  const size = (a: number, b: number) => spans[b]![1] - spans[a]![0] + (a > 0 ? 2 : 0) + (b < last ? 2 : 0);
  let a = size(0, at) <= max ? 0 : at;
  let b = at;
  while (b < last && size(a, b + 1) <= max) b++;
  while (a > 0 && size(a - 1, b) <= max) a--;
  return `${a > 0 ? '…\n' : ''}${text.slice(spans[a]![0], spans[b]![1])}${b < last ? '\n…' : ''}`;
}
