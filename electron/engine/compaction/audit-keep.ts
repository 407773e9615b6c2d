/**
 * When the compaction audit counts something as kept: an identifier is kept when
 * the summary, the flushed note lines or the messages kept verbatim contain it exactly, or in
 * the form OpenClaw's own identifier check accepts (its `summaryIncludesIdentifier`: a pure hex
 * id of 8+ digits in any case); a port said as "port 8080" is kept by its number. An ask, a
 * TODO or a decision is kept when most of its content words are there (OpenClaw's
 * `hasAskOverlap` reads a summary the same way: by words, since a summary rephrases).
 */
import { gramPostings } from './identifiers';

const PURE_HEX = /^[A-Fa-f0-9]{8,}$/;
const PORT_PHRASE = /^port\s*[=:]?\s*(\d{2,5})$/i;

/** The text an identifier is looked for in, prepared once per compaction. */
export interface KeptCorpus {
  text: string;
  words: Set<string>;
  /** Whitespace-separated tokens and their 3-gram index (lower case), built on first use. */
  index?: { tokens: string[]; grams: Map<string, number[]> } | undefined;
}

const GRAM = 3;
/** Characters no identifier of identifiers.ts holds (but a Windows path or the "port N" form): tokens split there. */
const SPLIT = /[\s<>"'`)\]}]+/;

/**
 * Looking each identifier up in the whole kept text was quadratic: 8,000 identifiers against a
 * 3 MB kept tail took minutes. Tokens sharing the identifier's rarest 3-gram are the only
 * candidates (as `dropContained` finds containment).
 */
function indexOf(c: KeptCorpus): NonNullable<KeptCorpus['index']> {
  if (c.index) return c.index;
  const tokens = [...new Set(c.text.split(SPLIT).filter((t) => t.length >= GRAM))];
  const grams = gramPostings(tokens.map((t) => t.toLowerCase()));
  c.index = { tokens, grams };
  return c.index;
}

/** Some token holds `id` (case-insensitively when `anyCase`). */
function inTokens(c: KeptCorpus, id: string, anyCase: boolean): boolean {
  const { tokens, grams } = indexOf(c);
  const low = id.toLowerCase();
  let rarest: number[] | undefined;
  for (let j = 0; j + GRAM <= low.length; j++) {
    const list = grams.get(low.slice(j, j + GRAM));
    if (!list) return false;
    if (!rarest || list.length < rarest.length) rarest = list;
  }
  for (const i of rarest ?? []) {
    const t = tokens[i] as string;
    if (anyCase ? t.toLowerCase().includes(low) : t.includes(id)) return true;
  }
  return false;
}

const STOP = new Set(
  'the and for that this with from have has was were are will would should could can not but you your our they them then than there their what when where which who why how into onto about also just only please let lets need needs want make sure use using used been being its it\'s i\'m we\'re don\'t does did done all any some more most very much'.split(' '),
);

/** Content words of `text`: lower case, 3+ letters or digits, no stop words, unique, in order. */
export function contentWords(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const w of text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}_-]+/u)) {
    const t = w.replace(/^[-_]+|[-_]+$/g, '');
    if (t.length < 3 || STOP.has(t) || seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  return out;
}

export function keptCorpus(parts: readonly string[]): KeptCorpus {
  const text = parts.join('\n');
  return { text, words: new Set(contentWords(text)) };
}

/** Is `id` in the corpus, exactly or in a form OpenClaw's identifier check accepts? */
export function identifierKept(id: string, c: KeptCorpus): boolean {
  const port = PORT_PHRASE.exec(id);
  if (port) return c.text.includes(id) || new RegExp(`(?<!\\d)${port[1]}(?!\\d)`).test(c.text);
  // Shorter than a gram, or holding a split character: the plain search.
  if (id.length < GRAM || SPLIT.test(id)) return c.text.includes(id) || (PURE_HEX.test(id) && c.text.toUpperCase().includes(id.toUpperCase()));
  return inTokens(c, id, PURE_HEX.test(id));
}

/** Is the ask/TODO/decision `item` reflected in the corpus (at least half of its first 8 content words, at most 3 needed)? */
export function itemKept(item: string, c: KeptCorpus): boolean {
  const words = contentWords(item).slice(0, 8);
  if (words.length === 0) return true;
  const need = Math.min(3, Math.ceil(words.length / 2));
  let hits = 0;
  for (const w of words) if (c.words.has(w) && ++hits >= need) return true;
  return false;
}
