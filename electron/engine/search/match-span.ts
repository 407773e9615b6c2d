/**
 * The lines a hit cites: from the first line of the hit that
 * relates to the question to the last, with the turn before the first and the turn after the
 * last — not the lines at its edges that have nothing to do with it. A chunk is cut by size, so
 * its edges fall anywhere in a talk: its last lines often open the next topic (the chunker
 * repeats them at the start of the next chunk, where they belong), its first lines close the
 * previous one. Each such line costs the reader (and the model, which reads what a citation
 * names) a line for nothing.
 *
 * A line relates when it holds a telling word of the question (one found in fewer than half of
 * the chunks: a word in every chunk — a speaker's name in a two-person chat — relates every
 * line and so none) or is close to it in meaning (line-score.ts `withMeaning`), or is a reply
 * or reaction to such a line (lines.ts `lineScores`). The edges are cut only where this is
 * known:
 * - a hit whose best line is weak (below the picker's {@link WEAK_LINE}) matched as a whole —
 *   by its date, or by a meaning no single line holds — and keeps all its lines;
 * - a line whose meaning is unknown (a model without line vectors, a line too short to have
 *   one) is not judged by its words alone, unless the search had no vector side at all;
 * - the turn next to each edge stays: the question a reply answers, the reply a statement gets
 *   ("Is this the one you sent to the film contest?") — where a dialogue's answer often is.
 *
 * The hit is still found, ranked and folded by its whole chunk (ranges.ts); only its citation
 * narrows.
 */
import type { LineQuery } from './line-score';
import { lineScores, stripComments, WEAK_LINE, type NumberedLine } from './lines';

/**
 * A term whose weight is at most this is found in at least half of the chunks: BM25's own
 * inverse document frequency, log((N − df + 0.5) / (df + 0.5)), is ≤ 0 there; the line
 * query's weight, log(1 + that ratio), is ≤ log 2 exactly then.
 */
export const COMMON_TERM_WEIGHT = Math.log(2);

/** Lines kept beyond each edge's last related line (the nearest non-blank ones). */
export const EDGE_TURNS = 1;

/**
 * The first and last line numbers `lines` (a hit's, in line order) should cite for `q`, or null
 * to cite them all. `sims[i]`: line `i`'s cosine to the question, NaN where unknown.
 * `wordsOnly`: the search had no vector side, so a line's words are all there is to know.
 */
export function matchSpan(lines: readonly NumberedLine[], q: LineQuery, sims: readonly number[] | undefined, wordsOnly: boolean): [number, number] | null {
  if (lines.length < 2) return null;
  const clean = stripComments(lines);
  // The line's score stays its share of the whole question's weight: common terms only stop counting.
  const telling: LineQuery = { ...q, terms: q.terms.filter((t) => t.weight > COMMON_TERM_WEIGHT) };
  const scores = lineScores(clean, telling, sims);
  if (Math.max(...scores) < WEAK_LINE) return null;
  const blank = (i: number) => !clean[i]!.text.trim();
  const silent = (i: number) => blank(i) || (scores[i] === 0 && (wordsOnly || Number.isFinite(sims?.[i] ?? Number.NaN)));
  let first = 0;
  let last = clean.length - 1;
  while (first < last && silent(first)) first++;
  while (last > first && silent(last)) last--;
  for (let n = 0; n < EDGE_TURNS; n++) {
    let i = first - 1;
    while (i >= 0 && blank(i)) i--;
    if (i >= 0) first = i;
    let j = last + 1;
    while (j < clean.length && blank(j)) j++;
    if (j < clean.length) last = j;
  }
  if (first === 0 && last === clean.length - 1) return null;
  return [clean[first]!.line, clean[last]!.line];
}
