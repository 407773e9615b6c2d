/**
 * The lines that answer (SPEC §7.1): for one hit, the lines a reader needs instead of
 * a window around the first query word. Each line of the hit is scored (line-score.ts); the
 * best ones are kept with what places them — the question a short reply answers, the heading a
 * note's bullet sits under — and a gap between picks is marked "…". Markup that is not content
 * (HTML comments: dreaming's `<!-- openclaw-memory-promotion:… -->`, annotation comments
 * `<!-- trigger: … -->`) never takes room: annotations stay available as result fields. A hit
 * whose best line is weak gets no picks, and its reader keeps the window (snippet.ts).
 *
 * Pure: lines in, picks out. The search pipeline (hybrid.ts) feeds each returned result's
 * numbered lines; the recall section's packer (openclaw/recall-pack.ts) chooses among the
 * picks of all hits within its budget.
 */
import type { PickedLine } from '../../../shared/types/search';
import { firstTermAt, scoreLine, withMeaning, type LineQuery } from './line-score';
import { cutAround } from './snippet';

/** A line of a hit with its number in the cited file. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** A best line below this share of the query's weight is weak: the hit keeps its window. */
export const WEAK_LINE = 0.2;

/** Lines kept as matches: those scoring at least this share of the hit's best line. */
const NEAR_BEST = 0.5;

/** Limits of a hit's picks: what a search result's reader is shown. */
export const PICK_DEFAULTS = { maxMatches: 4, maxLineChars: 700, nearBest: NEAR_BEST, weak: WEAK_LINE };

/** Limits of a hit's picks for a packer (the recall section), which chooses among every line that answers at all. */
export const PACK_PICKS = { maxMatches: 16, maxLineChars: 700, nearBest: 0, weak: 0.1 };

/** A dialogue line's speaker label: `**Ann:**`, `Ann:`, `User:` (the label is part of the line). */
const SPEAKER = /^\s*(?:\*\*[^*\n]{1,40}:\*\*|[\p{L}][\p{L}\p{N} ._-]{0,30}:)\s/u;
const HEADING = /^ {0,3}#{1,6}\s+\S/;

/**
 * The lines with HTML comments removed (a comment may span lines), trailing space trimmed.
 * A line that held nothing but a comment becomes empty.
 */
export function stripComments(lines: readonly NumberedLine[]): NumberedLine[] {
  let open = false;
  return lines.map(({ line, text }) => {
    let out = '';
    let i = 0;
    while (i < text.length) {
      if (open) {
        const end = text.indexOf('-->', i);
        if (end < 0) {
          i = text.length;
          break;
        }
        open = false;
        i = end + 3;
      } else {
        const start = text.indexOf('<!--', i);
        if (start < 0) {
          out += text.slice(i);
          break;
        }
        out += text.slice(i, start);
        open = true;
        i = start + 4;
      }
    }
    return { line, text: out.replace(/\s+$/, '') };
  });
}


/** Whether a line is a dialogue turn (starts with a speaker label). */
export function isTurn(text: string): boolean {
  return SPEAKER.test(text);
}

/** A line without its speaker label, for "is it short?" and near-duplicate checks. */
export function withoutSpeaker(text: string): string {
  return text.replace(SPEAKER, '').trim();
}

/** A reply this short (chars without the speaker) only makes sense with the line before it. */
const SHORT_REPLY = 60;

/**
 * The picks of one hit: up to `maxMatches` lines that answer `q` (score ≥ `weak`, default
 * {@link WEAK_LINE}, and ≥ `nearBest` × the best, default {@link NEAR_BEST}), each with the line before it when that line asks
 * a question or the pick is a short reply, and the heading above a note's line; in line
 * order. Null when no line is strong enough (the reader keeps the window). `sims[i]` is line
 * `i`'s cosine to the question where known (line-sim.ts), added to its keyword score; a
 * dialogue turn scores at least a share of its neighbours' ({@link withNeighbours}).
 */
export function pickLines(lines: readonly NumberedLine[], q: LineQuery, o: Partial<typeof PICK_DEFAULTS> = {}, sims?: readonly number[]): PickedLine[] | null {
  const { maxMatches, maxLineChars, nearBest, weak } = { ...PICK_DEFAULTS, ...o };
  const clean = stripComments(lines);
  const own = lineScores(clean, q, sims);
  const scored = clean.map((l, i) => ({ ...l, i, score: own[i]! }));
  const best = scored.reduce((m, l) => Math.max(m, l.score), 0);
  if (best < weak) return null;
  const matches = scored
    .filter((l) => l.score >= Math.max(weak, nearBest * best))
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, maxMatches);
  const picked = new Map<number, PickedLine>();
  const cut = (text: string) => (text.length > maxLineChars ? cutAround(text, Math.max(0, firstTermAt(text, q)), maxLineChars) : text);
  for (const m of matches) picked.set(m.i, { line: m.line, text: cut(m.text), score: round(m.score), role: 'match' });
  for (const m of matches) {
    for (const c of contextOf(clean, m.i, m.text)) {
      if (!picked.has(c)) picked.set(c, { line: clean[c]!.line, text: cut(clean[c]!.text), score: 0, role: 'context' });
    }
  }
  return [...picked.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
}

/**
 * Each line's score against `q` (lines with comments stripped): its keyword share with its
 * closeness in meaning (`sims[i]`, NaN where unknown) added, and a dialogue turn at least a
 * share of its neighbours' ({@link withNeighbours}). Blank lines score 0.
 */
export function lineScores(clean: readonly NumberedLine[], q: LineQuery, sims?: readonly number[]): number[] {
  const own = clean.map((l, i) => (l.text.trim() ? withMeaning(scoreLine(l.text, q), sims?.[i] ?? Number.NaN) : 0));
  return clean.map((_, i) => withNeighbours(clean, own, i));
}

/**
 * The share of a question's score its reply inherits. In a dialogue the line that answers is
 * often the other speaker's reply to a turn worded like the question ("Where did you go
 * camping?" — "To the mountains, last week."): the reply shares no word with the question.
 * Measured on the LoCoMo dev half (recall section at 600 tokens): 0.722 without, 0.740 at 0.5,
 * 0.747 at 0.7, 0.749 at 1; any previous turn (not only one that asks) 0.740; the share added
 * to the reply's own score instead of the larger of the two, 0.745 but silence questions then
 * got lines (4 of 100).
 */
export const REPLY_SHARE = 0.7;

/**
 * The share of a reaction's score the turn it reacts to inherits: a reply worded like the
 * question ("Congrats on the promotion!") often follows the line that says it ("I got promoted
 * at work"). Not from a turn that asks: a question is not a reaction to the line before it.
 * Measured as above, with {@link REPLY_SHARE}: 0.747 without, 0.748 at 0.2, 0.752 at 0.3 and
 * 0.4, 0.749 at 0.5 (0.752 at 0.4 also without the turns that ask).
 */
export const REACTION_SHARE = 0.4;

/** A dialogue line's speaker label, lowercased ('' for a line that is not a turn). */
function speakerOf(text: string): string {
  const m = SPEAKER.exec(text);
  return m ? m[0].trim().toLowerCase() : '';
}

/** Whether a turn asks something (a question mark anywhere: a photo caption may follow it). */
const asks = (text: string) => text.includes('?') || text.includes('？');

/** The index of the nearest non-empty line from `i` in direction `step`, or -1. */
function nearest(lines: readonly NumberedLine[], i: number, step: 1 | -1): number {
  for (let j = i + step; j >= 0 && j < lines.length; j += step) if (lines[j]!.text.trim()) return j;
  return -1;
}

/** Whether lines `i` and `j` are turns of two different speakers. */
function otherSpeakers(lines: readonly NumberedLine[], i: number, j: number): boolean {
  const a = speakerOf(lines[i]!.text);
  const b = speakerOf(lines[j]!.text);
  return a !== '' && b !== '' && a !== b;
}

/**
 * Line `i`'s score (`own`: each line's own) with its dialogue neighbours': at least
 * {@link REPLY_SHARE} of the turn before it when that turn is another speaker's question (the
 * reply is what answers it), and {@link REACTION_SHARE} of the other speaker's turn after it
 * when that turn does not ask (a reaction worded like the question; this line said it).
 */
function withNeighbours(lines: readonly NumberedLine[], own: readonly number[], i: number): number {
  let s = own[i]!;
  const prev = nearest(lines, i, -1);
  if (prev >= 0 && own[prev]! > 0 && asks(lines[prev]!.text) && otherSpeakers(lines, i, prev)) s = Math.max(s, REPLY_SHARE * own[prev]!);
  const next = nearest(lines, i, 1);
  if (next >= 0 && own[next]! > 0 && !asks(lines[next]!.text) && otherSpeakers(lines, i, next)) s = Math.max(s, REACTION_SHARE * own[next]!);
  return s;
}

/** Indexes of the lines that place line `i`: the question before a reply, the heading above a note's line. */
function contextOf(lines: readonly NumberedLine[], i: number, text: string): number[] {
  const out: number[] = [];
  let prev = i - 1;
  while (prev >= 0 && !lines[prev]!.text.trim()) prev--;
  const before = prev >= 0 ? lines[prev]!.text : '';
  if (isTurn(text)) {
    // A reply that only makes sense with its question ("Yes, last Tuesday.").
    if (before && isTurn(before) && (before.trimEnd().endsWith('?') || withoutSpeaker(text).length < SHORT_REPLY)) out.push(prev);
    return out;
  }
  if (HEADING.test(text)) return out;
  for (let h = i - 1; h >= 0; h--) {
    if (HEADING.test(lines[h]!.text)) {
      // A daily note's date heading says what the path already says.
      if (!/^ {0,3}#\s+\d{4}-\d{2}-\d{2}\s*$/.test(lines[h]!.text)) out.push(h);
      break;
    }
  }
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The picks as one text a model reads: in line order, a gap between non-adjacent picks marked "…". */
export function excerptOf(picks: readonly PickedLine[]): string {
  const out: string[] = [];
  let last = -1;
  for (const p of picks) {
    if (last >= 0 && p.line > last + 1) out.push('…');
    out.push(p.text);
    last = p.line;
  }
  return out.join('\n');
}

/**
 * A chunk's text as numbered lines, when its text holds one line per line of its range
 * (`[startLine, endLine]`); null when it does not (a long line hard-split over several chunks,
 * or a session chunk whose transcript has lines that are not rendered).
 */
export function numberLines(text: string, startLine: number, endLine: number): NumberedLine[] | null {
  const parts = text.split('\n');
  if (parts.length !== endLine - startLine + 1) return null;
  return parts.map((t, k) => ({ line: startLine + k, text: t }));
}

/**
 * A result as a model reads it (MCP's memory_search, OpenClaw's corpus supplement): its picked
 * lines, each with its number (`L14: …`) so a line can be cited exactly, a gap marked "…"; the
 * window (snippet) when no line was picked.
 */
export function readableText(r: { lines?: readonly PickedLine[] | undefined; snippet: string }): string {
  if (!r.lines?.length) return r.snippet;
  const out: string[] = [];
  let last = -1;
  for (const p of r.lines) {
    if (last >= 0 && p.line > last + 1) out.push('…');
    out.push(`L${p.line}: ${p.text}`);
    last = p.line;
  }
  return out.join('\n');
}
