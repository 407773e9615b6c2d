/**
 * Highlight the query's terms in a snippet with <mark>: words of two or more letters (case-
 * insensitive), quoted phrases whole, and each CJK character (the index matches CJK by
 * uni/bigrams, so single characters are what matched).
 */
import type { ReactNode } from 'react';

const STOP = new Set(['the', 'and', 'for', 'with', 'what', 'when', 'who', 'how', 'did', 'does', 'was', 'are', 'is', 'to', 'of', 'in', 'on', 'a', 'an', 'we', 'i']);
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/u;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The terms of a query that a snippet may contain. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  const rest = query.replace(/"([^"]+)"/g, (_, phrase: string) => {
    terms.add(phrase.trim());
    return ' ';
  });
  for (const w of rest.split(/[\s,;:!?()[\]{}"'`]+/)) {
    if (!w) continue;
    if (CJK.test(w)) {
      for (const ch of w) if (CJK.test(ch)) terms.add(ch);
      const latin = w.replace(new RegExp(CJK.source, 'gu'), ' ').trim();
      if (latin.length >= 2) terms.add(latin);
      continue;
    }
    const t = w.replace(/^[.#*_-]+|[.#*_-]+$/g, '');
    if (t.length >= 2 && !STOP.has(t.toLowerCase())) terms.add(t);
  }
  // Longest first, so "contextPruning.ttl" wins over "ttl".
  return [...terms].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** The snippet as text and <mark> nodes. */
export function highlight(text: string, terms: string[]): ReactNode[] {
  if (terms.length === 0) return [text];
  // Latin terms match at the start of a word ("migration" in "migrations", not "lock" in
  // "blocker"); CJK has no word breaks, so its characters match anywhere.
  const alt = terms.map((t) => (/^[\p{L}\p{N}]/u.test(t) && !CJK.test(t) ? `(?<![\\p{L}\\p{N}_])${escapeRe(t)}` : escapeRe(t)));
  const re = new RegExp(`(${alt.join('|')})`, 'giu');
  const out: ReactNode[] = [];
  let last = 0;
  let k = 0;
  for (const m of text.matchAll(re)) {
    const i = m.index ?? 0;
    if (m[0] === '') continue;
    if (i > last) out.push(text.slice(last, i));
    out.push(<mark key={k++}>{m[0]}</mark>);
    last = i + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
