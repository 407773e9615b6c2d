/**
 * CJK characters and weighted length: the one definition that pruning, chunking, the
 * keyword index, MMR and the renderer's highlighting share. Pure string code, no
 * Node or DOM, so engine and renderer import the same file.
 *
 * Why weights: Latin text is about 4 characters per token, a CJK character about one token,
 * so `ceil(chars / 4)` budgets (SPEC §2, §3, §6) count a CJK character as 4. Why runs:
 * CJK is written without spaces, so a word tokenizer would see a whole sentence as one word;
 * unigrams + overlapping bigrams make any 1- or 2-character query findable.
 *
 * Two weightings live here on purpose:
 * - {@link weightedLength} (chunking, search, UI): every CJK code point counts 4, whatever its
 *   UTF-16 length, over the ranges in {@link isCjkChar}.
 * - {@link openclawWeightedLength} (pruning only): OpenClaw's own heuristic reproduced exactly,
 *   so Cairn's prune preview crosses `softTrimRatio`/`hardClearRatio` on the same messages
 *   OpenClaw does on the same session (SPEC §3 compat). It agrees with `weightedLength` on
 *   every assigned character except CJK Extensions G/H (U+30000–U+323AF: OpenClaw counts
 *   their 2 UTF-16 units, Cairn 4) and halfwidth katakana/Hangul (U+FF61–U+FFDC: OpenClaw 1,
 *   Cairn 4).
 *
 * Conjoining Hangul jamo (U+1100–U+11FF, as in NFD-decomposed Korean) are deliberately NOT
 * CJK: a syllable is 2–3 jamo but about one token, so weighing each jamo 4 overcounts 2–3×
 * (OpenClaw does not weigh them either). Precomposed syllables (U+AC00–U+D7AF) are CJK.
 */

/** Weight of one CJK code point in chars: about one token at 4 chars a token (SPEC §3, §6). */
export const CJK_CHAR_WEIGHT = 4;

// CJK radicals … unified ideographs (incl. CJK punctuation, kana, Bopomofo, compatibility
// jamo, enclosed/compatibility forms, Ext A), Yi, Hangul syllables, compatibility
// ideographs, full- and halfwidth forms, and the supplementary ideographs (Ext B–F,
// compatibility supplement, Ext G–H).
const CJK_CLASS =
  '\\u2e80-\\u9fff\\ua000-\\ua4ff\\uac00-\\ud7af\\uf900-\\ufaff\\uff01-\\uffdc\\uffe0-\\uffe6\\u{20000}-\\u{2fa1f}\\u{30000}-\\u{323af}';
const CJK_CHAR = new RegExp(`[${CJK_CLASS}]`, 'u');
const CJK_RUN = new RegExp(`[${CJK_CLASS}]+`, 'gu');
/** Any code unit that could start a CJK character (a BMP range or a high surrogate of U+20000–U+323AF). */
const MAYBE_CJK = /[\u2e80-\u9fff\ua000-\ua4ff\uac00-\ud7af\uf900-\ufaff\uff01-\uffe6\ud840-\ud888]/;

/** True when `ch` (one code point) is CJK. */
export function isCjkChar(ch: string): boolean {
  return CJK_CHAR.test(ch);
}

/** True when the string contains at least one CJK character. */
export function hasCjk(text: string): boolean {
  return MAYBE_CJK.test(text) && CJK_CHAR.test(text);
}

/** Weight of one code point: {@link CJK_CHAR_WEIGHT} for CJK, else its UTF-16 length. */
export function charWeight(ch: string): number {
  return isCjkChar(ch) ? CJK_CHAR_WEIGHT : ch.length;
}

/** Weighted length: CJK code points count {@link CJK_CHAR_WEIGHT}, everything else its UTF-16 length. */
export function weightedLength(text: string): number {
  // Fast path: most Western text has no code unit in a CJK range.
  if (!MAYBE_CJK.test(text)) return text.length;
  let n = text.length;
  for (const m of text.matchAll(CJK_RUN)) {
    // A CJK code point weighs 4 instead of its UTF-16 length (1, or 2 for a pair).
    for (const ch of m[0]) n += CJK_CHAR_WEIGHT - ch.length;
  }
  return n;
}

// OpenClaw's "non-Latin" class (normalization-core cjk-chars, 2026.9) and its surrogate rule.
const OPENCLAW_NON_LATIN = /[\u2e80-\u9fff\ua000-\ua4ff\uac00-\ud7af\uf900-\ufaff\uff01-\uff60\uffe0-\uffe6\u{20000}-\u{2fa1f}]/gu;
const OPENCLAW_PAIR = /[\ud840-\ud87e][\udc00-\udfff]/g;

/**
 * OpenClaw's weighted char count, for pruning only (see the file header for why it is kept
 * apart): UTF-16 length, minus one per surrogate pair whose high half is U+D840–U+D87E, plus
 * 3 per non-Latin code point. So '漢' → 4, '𠀋' (Ext B) → 4, 'ᄀ' (conjoining jamo) → 1.
 */
export function openclawWeightedLength(text: string): number {
  if (!MAYBE_CJK.test(text)) return text.length;
  const nonLatin = text.match(OPENCLAW_NON_LATIN)?.length ?? 0;
  if (nonLatin === 0) return text.length;
  const pairs = text.match(OPENCLAW_PAIR)?.length ?? 0;
  return text.length - pairs + nonLatin * (CJK_CHAR_WEIGHT - 1);
}

/** Split text into alternating CJK runs and other text. */
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

/** Unigrams followed by overlapping bigrams of a CJK run (by code point, never half a pair). */
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

/** The text with every CJK run replaced by `replace(run)` (fast path: no CJK → unchanged). */
export function mapCjkRuns(text: string, replace: (run: string) => string): string {
  if (!MAYBE_CJK.test(text)) return text;
  return text.replace(CJK_RUN, replace);
}
