/**
 * Highlight the query's terms in a snippet with <mark>: words of two or more letters (case-
 * insensitive), quoted phrases whole, and each CJK character (the index matches CJK by
 * uni/bigrams, so single characters are what matched). CJK ranges and stop words are the
 * engine's own (shared/text), so what is marked is what the keyword index matched.
 */
import type { ReactNode } from 'react';
import { hasCjk, splitCjk } from '../../../../shared/text/cjk';
import { isStopWord } from '../../../../shared/text/stop-words';

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
    if (hasCjk(w)) {
      const parts = splitCjk(w);
      for (const p of parts) if (p.cjk) for (const ch of p.text) terms.add(ch);
      const latin = parts.map((p) => (p.cjk ? ' ' : p.text)).join('').trim();
      if (latin.length >= 2) terms.add(latin);
      continue;
    }
    const t = w.replace(/^[.#*_-]+|[.#*_-]+$/g, '');
    if (t.length >= 2 && !isStopWord(t.toLowerCase())) terms.add(t);
  }
  // Longest first, so "contextPruning.ttl" wins over "ttl".
  return [...terms].filter(Boolean).sort((a, b) => b.length - a.length);
}

/** The snippet as text and <mark> nodes. */
export function highlight(text: string, terms: string[]): ReactNode[] {
  if (terms.length === 0) return [text];
  // Latin terms match at the start of a word ("migration" in "migrations", not "lock" in
  // "blocker"); CJK has no word breaks, so its characters match anywhere.
  const alt = terms.map((t) => (/^[\p{L}\p{N}]/u.test(t) && !hasCjk(t) ? `(?<![\\p{L}\\p{N}_])${escapeRe(t)}` : escapeRe(t)));
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
