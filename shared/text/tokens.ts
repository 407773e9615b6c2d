/**
 * Word tokens for similarity (MMR) and the text handed to the FTS5 keyword index: Latin
 * words whole, CJK runs as unigrams + bigrams (see ./cjk for why). Shared by the engine and
 * the test doubles; no Node imports.
 */
import { cjkGrams, mapCjkRuns, splitCjk } from './cjk';

/** A non-CJK word: letters, digits and combining marks. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The lowercased words of `text` as FTS5's unicode61 tokenizer sees them (letters, digits, marks; CJK not split). */
export function lowerWords(text: string): string[] {
  return Array.from(text.toLowerCase().matchAll(WORD), (m) => m[0]);
}

/** Word tokens for similarity (MMR): lowercase non-CJK words, CJK runs as unigrams + bigrams. */
export function similarityTokens(text: string): string[] {
  const out: string[] = [];
  for (const part of splitCjk(text.toLowerCase())) {
    if (part.cjk) out.push(...cjkGrams(part.text));
    else for (const w of part.text.matchAll(WORD)) out.push(w[0]);
  }
  return out;
}

/**
 * The text handed to the FTS5 `unicode61` tokenizer: unchanged, except that every CJK run
 * is replaced by its unigrams and bigrams separated by spaces, so they become tokens.
 */
export function ftsIndexText(text: string): string {
  return mapCjkRuns(text, (run) => ` ${cjkGrams(run).join(' ')} `);
}
