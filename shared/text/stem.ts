/**
 * A light English stemmer: Porter's step 1 (plurals, -ed, -ing, final -y), the part of the
 * stemming that matters for matching a question's words to a line's ("camped" / "camping",
 * "plans" / "planned"). The index stems with FTS5's Porter tokenizer inside SQLite; the line
 * picker (electron/engine/search/lines.ts) scores lines in memory, where that tokenizer is not
 * reachable, so it applies this to both sides alike. Pure string code, no Node or DOM.
 */

const VOWEL = /[aeiou]/;

/** True when `s` holds a vowel (Porter's "the stem contains a vowel", y after a consonant counted too). */
function hasVowel(s: string): boolean {
  return VOWEL.test(s) || /[^aeiou]y/.test(s);
}

/** A double consonant at the end other than l, s, z ("hopp" → "hop"). */
function doubled(s: string): boolean {
  const n = s.length;
  return n >= 2 && s[n - 1] === s[n - 2] && !/[aeiou]/.test(s[n - 1]!) && !/[lsz]/.test(s[n - 1]!);
}

/** Consonant-vowel-consonant at the end, the last not w, x or y ("hop" → "hope" after -ing). */
function cvc(s: string): boolean {
  const n = s.length;
  if (n < 3) return false;
  const c = (ch: string) => !/[aeiou]/.test(ch);
  return c(s[n - 3]!) && !c(s[n - 2]!) && c(s[n - 1]!) && !/[wxy]/.test(s[n - 1]!);
}

/** The stem of one lowercase word (words of three letters or fewer, and non-Latin words, unchanged). */
export function stemWord(word: string): string {
  let w = word;
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  // Step 1a: plurals.
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is') && w.endsWith('s')) w = w.slice(0, -1);
  // Step 1b: -eed, -ed, -ing.
  if (w.endsWith('eed')) {
    if (w.length > 4) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
    const base = suffix ? w.slice(0, -suffix) : '';
    if (suffix && base.length >= 2 && hasVowel(base)) {
      w = base;
      if (/(at|bl|iz)$/.test(w)) w += 'e';
      else if (doubled(w)) w = w.slice(0, -1);
      else if (w.length === 3 && cvc(w)) w += 'e';
    }
  }
  // Step 1c: final y after a vowel-holding stem.
  if (w.endsWith('y') && w.length > 2 && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  // A final e is dropped so that "hope" and "hoping" → "hop" agree with "hopes" → "hope".
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}
