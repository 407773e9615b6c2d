/**
 * Scoring a hit's lines against the query: each query term
 * weighs its inverse document frequency in the index (a word in every chunk — a speaker's
 * name in a two-person chat — says little, a rare one much), and a line scores the share of
 * the query's weight it holds: exact tokens in full, a stemmed match ("camped" for "camping")
 * in part, a phrase only when its words stand together. A line that places a time ("yesterday",
 * "last May", a date) counts a little more for a question that asks when. The terms are the
 * keyword side's own (fts-query.ts `queryTerms`: stop words dropped, CJK as bigrams, exact
 * tokens whole), so a line scores for the words the chunk was found by.
 */
import { queryTerms } from './fts-query';
import { ftsIndexText, lowerWords } from '../../../shared/text/tokens';
import { hasCjk } from '../../../shared/text/cjk';
import { stemWord } from '../../../shared/text/stem';

/** One query term with its weight. */
interface WeightedTerm {
  /** The term's words (one for a word or a CJK gram, several for a phrase). */
  words: string[];
  /** The single word's stem (undefined for phrases and CJK grams: matched exactly only). */
  stem?: string | undefined;
  weight: number;
}

/** A query prepared for scoring lines. */
export interface LineQuery {
  terms: WeightedTerm[];
  /** Sum of the terms' weights: a line holding every term scores 1. */
  total: number;
  /** The question asks when (or names a date): lines that place a time count more. */
  temporal: boolean;
}

/** Share of a term's weight a stem-only match earns (the keyword side weighs stems below exact tokens too). */
export const STEM_SHARE = 0.6;

/** Score multiplier of a line that places a time, for a question that asks when. */
const TIME_BOOST = 1.15;

const TEMPORAL_QUERY = /\b(when|what (?:date|day|month|year|time)|how long ago|which (?:day|month|year))\b/i;
const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const TIME_WORDS = new RegExp(
  `\\b(yesterday|today|tonight|tomorrow|last (?:night|week|month|year|weekend|${MONTHS}|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|next (?:week|month|year)|\\d+ (?:days?|weeks?|months?|years?) ago|(?:a|one|two|three|few) (?:days?|weeks?|months?|years?) ago|${MONTHS}|(?:19|20)\\d\\d|weekend|this (?:week|month|year))\\b`,
  'i',
);

/** BM25's inverse document frequency of a term found in `df` of `n` chunks (always > 0). */
export function idf(df: number, n: number): number {
  const N = Math.max(n, df, 1);
  return Math.log(1 + (N - df + 0.5) / (df + 0.5));
}

/**
 * The query's terms weighted by `df` (a term's document count in the index; a phrase counts
 * as its rarest word) among `n` chunks. Without counts (`df` undefined) every term weighs 1.
 */
export function lineQuery(query: string, df: ((word: string) => number) | undefined, n: number, hasDate = false): LineQuery {
  const terms: WeightedTerm[] = [];
  for (const words of queryTerms(query)) {
    const count = df ? Math.min(...words.map((w) => df(w))) : 0;
    const cjk = hasCjk(words[0]!);
    // A CJK bigram found nowhere in memory mostly straddles two words ("議は", "った"): CJK is
    // written without spaces, so the query's grams include every boundary. Weighed in, they
    // held most of a question's weight and no line could answer it; a Latin word memory lacks
    // still weighs in full (it says memory may not hold the answer).
    if (df && cjk && count === 0) continue;
    const weight = df ? idf(count, n) : 1;
    terms.push({ words, stem: words.length === 1 && !cjk ? stemWord(words[0]!) : undefined, weight });
  }
  return { terms, total: terms.reduce((a, t) => a + t.weight, 0), temporal: hasDate || TEMPORAL_QUERY.test(query) };
}

type LineTokens = { tokens: string[]; set: Set<string>; stems: Set<string> };

/**
 * Lines tokenized lately: a search scores each returned line twice (its cited span, then its
 * picks: match-span.ts, lines.ts), and the same lines come back across searches.
 */
const TOKEN_MEMO_MAX = 1024;
const tokenMemo = new Map<string, LineTokens>();

/** A line's tokens as the index sees them (CJK runs as unigrams + bigrams) and their stems. */
function lineTokens(text: string): LineTokens {
  const hit = tokenMemo.get(text);
  if (hit) return hit;
  const tokens = lowerWords(ftsIndexText(text));
  const out = { tokens, set: new Set(tokens), stems: new Set(tokens.map(stemWord)) };
  if (tokenMemo.size >= TOKEN_MEMO_MAX) tokenMemo.delete(tokenMemo.keys().next().value!);
  tokenMemo.set(text, out);
  return out;
}

/** Whether `words` stand together, in order, in `tokens`. */
function hasPhrase(tokens: readonly string[], words: readonly string[]): boolean {
  outer: for (let i = 0; i + words.length <= tokens.length; i++) {
    for (let j = 0; j < words.length; j++) if (tokens[i + j] !== words[j]) continue outer;
    return true;
  }
  return false;
}

/** How well `text` answers `q`, 0..1 (the share of the query's weight it holds, a time-placing line a little more). */
export function scoreLine(text: string, q: LineQuery): number {
  if (q.total <= 0 || !text) return 0;
  const { tokens, set, stems } = lineTokens(text);
  let got = 0;
  for (const t of q.terms) {
    if (t.words.length > 1) {
      if (hasPhrase(tokens, t.words)) got += t.weight;
    } else if (set.has(t.words[0]!)) got += t.weight;
    else if (t.stem !== undefined && stems.has(t.stem)) got += STEM_SHARE * t.weight;
  }
  let s = got / q.total;
  if (s > 0 && q.temporal && TIME_WORDS.test(text)) s *= TIME_BOOST;
  return Math.min(1, s);
}

/**
 * Where in `text` the first query term stands (a UTF-16 offset), or -1: the point a line too
 * long to read whole is cut around.
 */
export function firstTermAt(text: string, q: LineQuery): number {
  const lower = text.toLowerCase();
  let first = -1;
  for (const t of q.terms) {
    for (const probe of [t.words[0] ?? '', t.stem ?? '']) {
      if (!probe) continue;
      const i = lower.indexOf(probe);
      if (i >= 0 && (first < 0 || i < first)) first = i;
    }
  }
  return first;
}

/**
 * A line whose cosine to the question is at or below this says nothing by meaning alone, and
 * the weight of the rest beside the keyword share. Measured on the LoCoMo dev half with the
 * static embedder (recall section at 600 tokens): keywords alone 0.637; floor 0.3 with weight
 * 0.5 0.689, 0.8 0.716, 1.0 0.721 (but a silence question then got a line); floor 0.2 drew
 * lines for questions memory cannot answer.
 */
export const SIM_FLOOR = 0.3;
export const SIM_WEIGHT = 0.8;

/** A line's keyword score with its closeness in meaning (`cos`, NaN when unknown) added. */
export function withMeaning(lex: number, cos: number): number {
  if (!Number.isFinite(cos)) return lex;
  const v = SIM_WEIGHT * Math.max(0, (cos - SIM_FLOOR) / (1 - SIM_FLOOR));
  return Math.min(1, lex + v);
}
