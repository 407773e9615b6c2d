/**
 * Word tokenisation for the static word-vector embedder: lowercase, Unicode letters and
 * digits (so "café" and "naïve" stay whole), inner hyphens/apostrophes/dots kept so
 * "e-mail" and "u.s." can match the vocabulary whole, with a fallback to their parts.
 * English stop words are skipped: they carry little meaning and dominate an average.
 */

// A word: letters/digits/marks, optionally joined by - ' ’ . with more letters/digits.
const WORD_RE = /[\p{L}\p{N}\p{M}]+(?:[-'’.][\p{L}\p{N}\p{M}]+)*/gu;
const JOINERS_RE = /[-'’.]+/;

/**
 * Common English function words (articles, pronouns, auxiliaries, prepositions,
 * conjunctions). Kept short on purpose: content words like "not" are meaningful for memory
 * ("do not use X"), so they stay.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else so than that this these those there here ' +
    'i me my mine myself we us our ours ourselves you your yours yourself yourselves ' +
    'he him his himself she her hers herself it its itself they them their theirs themselves ' +
    'what which who whom whose when where why how ' +
    'am is are was were be been being have has had having do does did doing ' +
    'will would shall should can could may might must ' +
    'of at by for with about against between into through during before after above below ' +
    'to from up down in out on off over under again further once ' +
    'all any both each few more most other some such only own same too very just ' +
    'as until while also s t d ll m re ve'
  ).split(/\s+/),
);

/**
 * Split `text` into lowercase word tokens, in order. Tokens containing joiners are returned
 * whole; callers that cannot find them in a vocabulary can use `splitJoined()`.
 */
export function wordTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD_RE)) out.push(m[0].replace(/’/g, "'"));
  return out;
}

/** Parts of a joined token ("e-mail" → ["e", "mail"]); empty parts dropped. */
export function splitJoined(token: string): string[] {
  return token.split(JOINERS_RE).filter((p) => p.length > 0);
}

/** True when the token should not contribute to a text's meaning. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
