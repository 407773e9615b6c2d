/**
 * BERT's uncased WordPiece tokenizer (Hugging Face `BertNormalizer` + `BertPreTokenizer` +
 * `WordPiece`, as potion-base-8M's tokenizer.json configures them), mapping text to
 * vocabulary rows for the static embedder. Normalising: control characters dropped,
 * whitespace made spaces, CJK ideographs split into words of their own, accents stripped
 * (NFD, combining marks removed), lowercased. Words split at whitespace and at every
 * punctuation character; each word then greedily into its longest vocabulary pieces, the
 * inner ones with the `##` prefix. A word with an unmatchable piece, or longer than 100
 * characters, is the unknown token, which model2vec leaves out of the average.
 */

/** What the tokenizer needs from a vocabulary: the row of a piece, or -1. */
export interface PieceLookup {
  lookup(piece: string): number;
}

const MAX_WORD_CHARS = 100;
const CONTINUATION = '##';

/** CJK ideograph blocks, as BERT's `_is_chinese_char` lists them. */
function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

const PUNCT_RE = /\p{P}/u;
const SPACE_RE = /\p{Zs}/u;
const MARK_RE = /\p{Mn}/gu;
/** What BertNormalizer's clean_text drops: control and format characters (not tab, newline, CR), U+FFFD. */
const CONTROL_ANY_RE = /[\p{Cf}\p{Co}\ufffd]|(?![\t\n\r])\p{Cc}/u;
const CONTROL_ALL_RE = /[\p{Cf}\p{Co}\ufffd]|(?![\t\n\r])\p{Cc}/gu;

/** ASCII punctuation counts whole (BERT treats `$`, `+`, `^`… as punctuation too). */
function isPunct(cp: number, ch: string): boolean {
  if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126)) return true;
  return cp >= 128 && PUNCT_RE.test(ch);
}

function isSpace(cp: number, ch: string): boolean {
  return cp === 32 || cp === 9 || cp === 10 || cp === 13 || (cp >= 128 && SPACE_RE.test(ch));
}

/** Lowercase, accent-free, with combining marks removed (BertNormalizer with lowercase on). */
function foldWord(word: string): string {
  const lower = word.toLowerCase();
  // ASCII needs no decomposition (the common case, and NFD is not free).
  for (let i = 0; i < lower.length; i++) {
    if (lower.charCodeAt(i) >= 128) return lower.normalize('NFD').replace(MARK_RE, '');
  }
  return lower;
}

/**
 * Split `text` into BERT words (normalised): runs between whitespace, with each
 * punctuation character and each CJK ideograph a word of its own.
 */
export function bertWords(input: string): string[] {
  // Control characters are dropped, not split at ("co\u00adoperate" is one word).
  const text = CONTROL_ANY_RE.test(input) ? input.replace(CONTROL_ALL_RE, '') : input;
  const out: string[] = [];
  let start = -1;
  const flush = (end: number): void => {
    if (start >= 0) {
      const w = foldWord(text.slice(start, end));
      if (w) out.push(w);
      start = -1;
    }
  };
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) as number;
    const len = cp > 0xffff ? 2 : 1;
    if (cp < 128 && ((cp >= 97 && cp <= 122) || (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90))) {
      if (start < 0) start = i;
      i += len;
      continue;
    }
    const ch = text.slice(i, i + len);
    if (isSpace(cp, ch)) {
      flush(i);
    } else if (isPunct(cp, ch) || isCjk(cp)) {
      flush(i);
      const w = foldWord(ch);
      if (w) out.push(w);
    } else if (start < 0) {
      start = i;
    }
    i += len;
  }
  flush(text.length);
  return out;
}

/**
 * Rows of `word`'s WordPiece pieces appended to `out`; false (nothing appended) when the
 * word is the unknown token.
 */
export function wordPieces(word: string, vocab: PieceLookup, out: number[]): boolean {
  const chars = Array.from(word);
  if (chars.length > MAX_WORD_CHARS) return false;
  const mark = out.length;
  // Code-unit offsets of each character boundary, so pieces are plain slices.
  const at: number[] = [0];
  for (const c of chars) at.push((at[at.length - 1] as number) + c.length);
  let start = 0;
  while (start < chars.length) {
    let end = chars.length;
    let row = -1;
    while (end > start) {
      const piece = word.slice(at[start], at[end]);
      row = vocab.lookup(start > 0 ? CONTINUATION + piece : piece);
      if (row >= 0) break;
      end--;
    }
    if (row < 0) {
      out.length = mark;
      return false;
    }
    out.push(row);
    start = end;
  }
  return true;
}
