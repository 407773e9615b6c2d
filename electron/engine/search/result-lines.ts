/**
 * Filling each returned result's `lines` and `excerpt` from the chunks the pipeline
 * already holds: the query's terms weighted by the index's own document counts (the keyword
 * side's cached vocabulary reads, candidates.ts), the result's cited lines numbered as its
 * citation numbers them — a folded result (ranges.ts) from every chunk of its file it
 * covers — narrowed to the lines that carry its match (match-span.ts), and lines.ts picks
 * among those. Runs for the returned results only, after ranking: the order and scores are
 * what they were.
 */
import type { Db } from '../index/db';
import type { SearchResult } from '../../../shared/types/search';
import { docCounts } from './candidates';
import { lineQuery, type LineQuery } from './line-score';
import type { SessionLines } from './session-lines';
import { matchSpan } from './match-span';
import { PACK_PICKS, PICK_DEFAULTS, excerptOf, numberLines, pickLines, stripComments, type NumberedLine } from './lines';

/** A chunk the pipeline loaded: its file, range and text. */
export interface LoadedChunk {
  path: string;
  start_line: number;
  end_line: number;
  text: string;
}

/** The query prepared for line scoring on `db` (terms weighted by IDF; unweighted when the counts cannot be read). */
export function queryForLines(db: Db, query: string, hasDate: boolean): LineQuery {
  try {
    const df = docCounts(db);
    const v = db.prepare("SELECT value FROM meta WHERE key = 'chunkCount'").pluck().get() as string | undefined;
    const n = v !== undefined ? Number(v) : (db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number);
    return lineQuery(query, df, n, hasDate);
  } catch {
    return lineQuery(query, undefined, 0, hasDate);
  }
}

/**
 * The lines `[from, to]` of `path` as the chunks hold them (each chunk's own numbering, when it
 * has one line per line of its range), in line order; null when a line of the range is not
 * known that way.
 */
export function linesOf(chunks: readonly LoadedChunk[], path: string, from: number, to: number): NumberedLine[] | null {
  const byLine = new Map<number, string>();
  for (const c of chunks) {
    if (c.path !== path || c.end_line < from || c.start_line > to) continue;
    const numbered = numberLines(c.text, c.start_line, c.end_line);
    if (!numbered) continue;
    for (const l of numbered) if (l.line >= from && l.line <= to) byLine.set(l.line, l.text);
  }
  const out: NumberedLine[] = [];
  for (let line = from; line <= to; line++) {
    const text = byLine.get(line);
    if (text === undefined) return null;
    out.push({ line, text });
  }
  return out;
}

/** Each text's cosine to the question (NaN where unknown), or null: line-sim.ts bound to one search. */
export type LineSims = (texts: readonly string[]) => Promise<number[] | null>;

/** How {@link fillResultLines} reads and cites a search's results. */
export interface ResultLinesOptions {
  /** Every line that answers at all (the recall packer chooses), not only the best few. */
  forPacking?: boolean | undefined;
  /** The lines' closeness in meaning to the question (line-sim.ts). */
  sims?: LineSims | undefined;
  sessionLines?: SessionLines | undefined;
  /** Narrow each result's cited range to the lines that carry its match (match-span.ts). */
  narrow?: boolean | undefined;
  /** The search had no vector side: a line is judged by its words alone. */
  wordsOnly?: boolean | undefined;
}

/**
 * Narrow each result's cited range to its match (when `narrow`), then set `lines` and
 * `excerpt` on each result whose lines can be numbered and whose best line is strong enough,
 * from the lines it cites. `forPacking`: every line that answers at all (the recall packer
 * chooses). The lines' closeness in meaning counts in both when `sims` gives it.
 */
export async function fillResultLines(results: SearchResult[], chunks: readonly LoadedChunk[], q: LineQuery, o: ResultLinesOptions = {}): Promise<void> {
  const { forPacking = false, sims, sessionLines } = o;
  const numbered = await Promise.all(
    results.map(async (r) => {
      const own = linesOf(chunks, r.path, r.startLine, r.endLine);
      // A session chunk does not number its lines itself when its range holds lines that are not rendered.
      if (own || r.source !== 'sessions' || !sessionLines) return own;
      return sessionLines(r.path, r.startLine, r.endLine).catch(() => null);
    }),
  );
  let cos: number[] | null = null;
  const flat = numbered.flatMap((ls) => (ls ? stripComments(ls).map((l) => l.text) : []));
  if ((forPacking || o.narrow) && sims && flat.length > 0) {
    try {
      cos = await sims(flat);
    } catch {
      cos = null; // the keyword scores stand
    }
  }
  let at = 0;
  results.forEach((r, i) => {
    let lines = numbered[i];
    if (!lines) return;
    let mine = cos ? cos.slice(at, at + lines.length) : undefined;
    at += lines.length;
    const span = o.narrow ? matchSpan(lines, q, mine, o.wordsOnly === true) : null;
    if (span) {
      const keep = lines.map((l) => l.line >= span[0] && l.line <= span[1]);
      lines = lines.filter((_, k) => keep[k]);
      mine = mine?.filter((_, k) => keep[k]);
      r.startLine = span[0];
      r.endLine = span[1];
      r.citation = `${r.path}#L${span[0]}-L${span[1]}`;
    }
    const picks = pickLines(lines, q, forPacking ? PACK_PICKS : PICK_DEFAULTS, mine);
    if (!picks) return;
    r.lines = picks;
    r.excerpt = excerptOf(picks);
  });
}
