/**
 * When the compaction audit counts something as kept (issue 32): an identifier is kept when
 * the summary, the flushed note lines or the messages kept verbatim contain it exactly, or in
 * the form OpenClaw's own identifier check accepts (its `summaryIncludesIdentifier`: a pure hex
 * id of 8+ digits in any case); a port said as "port 8080" is kept by its number. An ask, a
 * TODO or a decision is kept when most of its content words are there (OpenClaw's
 * `hasAskOverlap` reads a summary the same way: by words, since a summary rephrases).
 */

const PURE_HEX = /^[A-Fa-f0-9]{8,}$/;
const PORT_PHRASE = /^port\s*[=:]?\s*(\d{2,5})$/i;

/** The text an identifier is looked for in, prepared once per compaction. */
export interface KeptCorpus {
  text: string;
  upper: string;
  words: Set<string>;
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
  return { text, upper: text.toUpperCase(), words: new Set(contentWords(text)) };
}

/** Is `id` in the corpus, exactly or in a form OpenClaw's identifier check accepts? */
export function identifierKept(id: string, c: KeptCorpus): boolean {
  if (c.text.includes(id)) return true;
  if (PURE_HEX.test(id)) return c.upper.includes(id.toUpperCase());
  const port = PORT_PHRASE.exec(id);
  if (port) return new RegExp(`(?<!\\d)${port[1]}(?!\\d)`).test(c.text);
  return false;
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
