/**
 * Text tokens shared by chunking, the keyword index and MMR: CJK detection and weighting,
 * word tokens (Latin words whole, CJK runs as unigrams + bigrams) and stop words.
 *
 * CJK scripts are written without spaces, so a word tokenizer sees a whole sentence as one
 * "word". Unigrams + overlapping bigrams make any 1- or 2-character query findable and let
 * longer queries match by their bigrams (the usual CJK full-text trick).
 */

/** Han, Hiragana, Katakana, Hangul, CJK symbols/fullwidth forms: one "token-ish" unit each. */
const CJK_CHAR = /[\u3000-\u303f\uff00-\uffef\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\u{20000}-\u{2fa1f}]/u;
const CJK_RUN = /[\u3000-\u303f\uff00-\uffef\u3040-\u30ff\u3100-\u312f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\u{20000}-\u{2fa1f}]+/gu;
/** A non-CJK word: letters, digits and combining marks. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** True when the character (one code point) is CJK. */
export function isCjkChar(ch: string): boolean {
  return CJK_CHAR.test(ch);
}

/** Chunking weight of one code point: a CJK character is about one token, i.e. 4 chars (SPEC §3, §6). */
export const CJK_CHAR_WEIGHT = 4;

/** Weighted length of a string: CJK code points count {@link CJK_CHAR_WEIGHT}, others by UTF-16 length. */
export function weightedLength(text: string): number {
  // Fast path: no code unit in a CJK range (most Western text) -> plain length.
  if (!MAYBE_CJK.test(text)) return text.length;
  let n = text.length;
  for (const m of text.matchAll(CJK_RUN)) {
    // Each CJK code point weighs 4 instead of its UTF-16 length (1, or 2 for a pair).
    for (const ch of m[0]) n += CJK_CHAR_WEIGHT - ch.length;
  }
  return n;
}

/** Any code unit that could start a CJK character (BMP ranges or a CJK Ext-B+ high surrogate). */
const MAYBE_CJK = /[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef\ud840-\ud87e]/;

/** Common English function words, dropped from keyword queries (content words like "not" stay). */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else so than that this these those there here ' +
    'i me my mine myself we us our ours you your yours he him his she her it its they them their ' +
    'what which who whom whose when where why how ' +
    'am is are was were be been being have has had having do does did doing done ' +
    'will would shall should can could may might must ' +
    'of at by for with about into through during to from up down in out on off over under ' +
    'again once all any both each few more most other some such only own same too very just ' +
    'as until while also s t d ll m re ve please tell know remember'
  ).split(/\s+/),
);

/** Unigrams followed by overlapping bigrams of a CJK run. */
export function cjkGrams(run: string): string[] {
  const chars = Array.from(run);
  const out = [...chars];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** Bigrams of a CJK run (the run itself when it is one character): the query-side terms. */
export function cjkQueryGrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length <= 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/**
 * Word tokens for similarity (MMR): lowercase non-CJK words, CJK runs as unigrams + bigrams.
 */
export function similarityTokens(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  let last = 0;
  for (const m of lower.matchAll(CJK_RUN)) {
    const idx = m.index ?? 0;
    for (const w of lower.slice(last, idx).matchAll(WORD)) out.push(w[0]);
    out.push(...cjkGrams(m[0]));
    last = idx + m[0].length;
  }
  for (const w of lower.slice(last).matchAll(WORD)) out.push(w[0]);
  return out;
}

/**
 * The text handed to the FTS5 `unicode61` tokenizer: unchanged, except that every CJK run
 * is followed by its unigrams and bigrams separated by spaces, so they become tokens.
 */
export function ftsIndexText(text: string): string {
  if (!MAYBE_CJK.test(text)) return text;
  return text.replace(CJK_RUN, (run) => ` ${cjkGrams(run).join(' ')} `);
}

/** Split text into alternating CJK runs and other text (used by the query builder). */
export function splitCjk(text: string): { text: string; cjk: boolean }[] {
  const parts: { text: string; cjk: boolean }[] = [];
  let last = 0;
  for (const m of text.matchAll(CJK_RUN)) {
    const idx = m.index ?? 0;
    if (idx > last) parts.push({ text: text.slice(last, idx), cjk: false });
    parts.push({ text: m[0], cjk: true });
    last = idx + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), cjk: false });
  return parts;
}
