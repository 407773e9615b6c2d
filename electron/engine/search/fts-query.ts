/**
 * User text → FTS5 MATCH expression (SPEC §7 **Beyond**). People ask in sentences whose
 * words rarely all occur in one chunk, so terms are ORed and BM25 ranks (a chunk with more
 * and rarer terms scores higher). Stop words are dropped; "quoted phrases" and exact tokens
 * with inner punctuation (`memory.search.query.minScore`, `ECONNREFUSED`, `a1b2c3d`,
 * `127.0.0.1:8080`) stay whole as phrases; CJK runs become bigram terms to match the index.
 * Every term is emitted as a double-quoted FTS5 string, so user input can never be parsed
 * as FTS5 syntax (no operator, column filter or unbalanced quote reaches the parser).
 */
import { cjkQueryGrams, splitCjk } from '../../../shared/text/cjk';
import { STOP_WORDS } from '../../../shared/text/stop-words';
import { lowerWords as words } from '../../../shared/text/tokens';

function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Terms of a query: phrases (arrays of words) and single CJK grams. */
export function queryTerms(query: string): string[][] {
  const terms: string[][] = [];
  const stopped: string[][] = [];
  const seen = new Set<string>();
  const add = (t: string[], target = terms) => {
    const key = t.join(' ');
    if (!key || seen.has(key)) return;
    seen.add(key);
    target.push(t);
  };
  // Quoted phrases first (straight or curly quotes); the rest is split on whitespace.
  const rest = query.replace(/["“”]([^"“”]+)["“”]/g, (_, phrase: string) => {
    for (const part of splitCjk(phrase)) {
      const w = part.cjk ? Array.from(part.text) : words(part.text);
      if (w.length) add(w);
    }
    return ' ';
  });
  for (const token of rest.split(/\s+/)) {
    if (!token) continue;
    for (const part of splitCjk(token)) {
      if (part.cjk) {
        for (const g of cjkQueryGrams(part.text)) add([g]);
        continue;
      }
      const w = words(part.text);
      if (w.length === 0) continue;
      // Inner punctuation makes an exact token (key path, IP, error string): keep it whole.
      if (w.length > 1 && /[\p{L}\p{N}][^\s\p{L}\p{N}]+[\p{L}\p{N}]/u.test(part.text)) add(w);
      else for (const x of w) add([x], STOP_WORDS.has(x) ? stopped : terms);
    }
  }
  // A query of only stop words ("what was it") still searches them rather than nothing.
  return terms.length > 0 ? terms : stopped;
}

/** The MATCH expression for `query`, or null when it has no searchable term. */
export function buildFtsQuery(query: string, keep?: (terms: string[][]) => string[][]): string | null {
  let terms = queryTerms(query);
  if (keep) terms = keep(terms);
  if (terms.length === 0) return null;
  return terms.map((t) => (t.length === 1 && HASH_LIKE.test(t[0]!) ? `${quote(t[0]!)} *` : quote(t.join(' ')))).join(' OR ');
}

/**
 * A hash-like token (letters and digits mixed, 6+ characters: `3f9a2c1`, `a1b2c3d4e5`) is
 * searched as a prefix, so a short commit hash finds the note that wrote it out in full.
 */
const HASH_LIKE = /^(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{6,}$/;

/** Below this many chunks no term is dropped for being common (see pruneTerms). */
export const PRUNE_FROM_CHUNKS = 50;

/** Postings the keyword side reads at most per query (sum of the kept terms' document counts). */
export const POSTINGS_BUDGET = 20_000;

/**
 * Choose which terms to search given each term's document count `df` (undefined = unknown)
 * among `total` chunks. BM25 gives a term in more than half of the chunks no weight at all
 * (FTS5 floors its IDF at ~0), so such terms are dropped; then, rarest first, terms are kept
 * while their postings fit the budget (`budget`, default {@link POSTINGS_BUDGET}). The rarest
 * term is always kept, so a query never loses all of its words.
 */
export function pruneTerms(terms: string[][], df: (term: string[]) => number | undefined, total: number, budget = POSTINGS_BUDGET): string[][] {
  if (terms.length <= 1) return terms;
  const withDf = terms.map((t, i) => ({ t, i, df: df(t) ?? 0 }));
  // In a small memory (a new user's few notes) a word found in half of the chunks still
  // tells them apart, and searching it costs nothing: without this, a query's only matching
  // word was dropped for its unmatched ones and the search found nothing at all.
  const useful = total < PRUNE_FROM_CHUNKS ? withDf : withDf.filter((x) => x.df <= total / 2);
  if (useful.length === 0) return [withDf.sort((a, b) => a.df - b.df || a.i - b.i)[0]!.t];
  const pool = useful.sort((a, b) => a.df - b.df || a.i - b.i);
  const kept: typeof pool = [];
  let sum = 0;
  for (const x of pool) {
    if (kept.length > 0 && sum + x.df > budget) break;
    kept.push(x);
    sum += x.df;
  }
  return kept.sort((a, b) => a.i - b.i).map((x) => x.t);
}
