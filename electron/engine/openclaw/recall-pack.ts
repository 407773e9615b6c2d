/**
 * Packing the recall section for distinct evidence (SPEC §7.1): the section chooses
 * LINES across hits, not hits. Each hit's picked lines (search/lines.ts, filled by the search
 * pipeline) become units — a line that answers, with the lines that place it (the question a
 * reply answers, a note's heading) — valued by how well the line answers and how the hit
 * ranked. The best units go in while the whole section, as OpenClaw estimates its tokens
 * (token-estimate.ts), stays inside the budget: so short lines from many sources fit where
 * three ten-line windows did. No line goes in twice (the same file line from two overlapping
 * hits, or the same words in a note and a transcript: near-duplicates folded). A line too long
 * for the room left is cut around its match. Each source is shown once, its runs of adjacent
 * lines cited exactly (`memory/x.md#L14`, `#L21-L22`), with the date it was written when the
 * path does not say it, sources in the order their best line was chosen.
 */
import type { PickedLine, SearchResult } from '../../../shared/types/search';
import { withoutSpeaker } from '../search/lines';
import { cutAround } from '../search/snippet';
import { firstTermAt, lineQuery } from '../search/line-score';
import { openclawStringChars } from './token-estimate';

/**
 * Silence when nothing answers: without one line scoring this much, the section stays empty
 * (a question whose answer is nowhere in memory still shares a word or two with some lines).
 */
export const LINE_FLOOR = 0.3;

/** Once a line answers, the rest of the budget may hold lines down to this score (other evidence of a multi-part question). */
export const FILL_FLOOR = 0.1;

/** A line cut to fit must keep at least this many chars, or it is left out. */
const MIN_CUT = 80;

/** What the packer renders around the lines (recall.ts owns the words). */
export interface SectionFrame {
  head: string;
  tail: string;
  /** Memory text made harmless inside the section. */
  escape: (s: string) => string;
}

/** A line in the section: where it is from, and what is read. */
interface PackedLine {
  hit: number;
  line: number;
  text: string;
}

interface Unit {
  hit: number;
  value: number;
  lines: PickedLine[];
  /** The match line's own score (for the floor and ties). */
  score: number;
}

/** What packing chose: the section text, the hits it drew lines from, and the lines per hit. */
export interface Packed {
  text: string;
  used: SearchResult[];
  lines: number;
}

/** Lowercased words of a line without its speaker: two lines with the same key say the same thing. */
export function lineKey(text: string): string {
  return withoutSpeaker(text).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim().slice(0, 160);
}

/** Each hit's match lines as units (the context lines just before a match go with it). */
function unitsOf(hits: readonly SearchResult[], floor: number): Unit[] {
  const top = hits.reduce((m, h) => Math.max(m, h.score), 0) || 1;
  const units: Unit[] = [];
  hits.forEach((h, hit) => {
    const lines = h.lines ?? [];
    // A line of a lower-ranked hit is worth less: the search judged its chunk less relevant.
    const rank = Math.min(1, h.score / top);
    for (let i = 0; i < lines.length; i++) {
      const m = lines[i]!;
      if (m.role !== 'match' || m.score < floor) continue;
      const ctx: PickedLine[] = [];
      for (let j = i - 1; j >= 0 && lines[j]!.role === 'context'; j--) ctx.unshift(lines[j]!);
      units.push({ hit, value: m.score * rank, lines: [...ctx, m], score: m.score });
    }
  });
  return units;
}

/** The citation of lines `a`–`b` of `path`. */
const cite = (path: string, a: number, b: number) => (a === b ? `${path}#L${a}` : `${path}#L${a}-L${b}`);

/** A line as the section shows it: on one line, escaped. */
const shown = (frame: SectionFrame, text: string) => frame.escape(text.replace(/\s+/g, ' ').trim());

/** The date a reader needs to place a source's lines, when its path does not already say it. */
const dayOf = (h: SearchResult) => (h.day && !h.path.includes(h.day) ? ` (${h.day})` : '');

/** A source's lines (sorted) as runs of adjacent lines: [first index, last index]. */
function runsOf(ls: readonly PackedLine[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < ls.length; ) {
    let j = i;
    while (j + 1 < ls.length && ls[j + 1]!.line === ls[j]!.line + 1) j++;
    out.push([i, j]);
    i = j + 1;
  }
  return out;
}

/** The section for the chosen lines: sources in `order`, runs of adjacent lines cited, each source's date on its first run. */
function render(hits: readonly SearchResult[], order: readonly number[], chosen: readonly PackedLine[], frame: SectionFrame): string {
  if (chosen.length === 0) return '';
  const body: string[] = [];
  const byPath = new Map<string, PackedLine[]>();
  for (const hit of order) if (!byPath.has(hits[hit]!.path)) byPath.set(hits[hit]!.path, []);
  for (const l of chosen) byPath.get(hits[l.hit]!.path)!.push(l);
  for (const [p, lines] of byPath) {
    const ls = lines.sort((a, b) => a.line - b.line);
    if (ls.length === 0) continue;
    const day = dayOf(hits[ls[0]!.hit]!);
    for (const [i, j] of runsOf(ls)) {
      body.push(`[${cite(p, ls[i]!.line, ls[j]!.line)}]${i === 0 ? day : ''}`);
      for (let k = i; k <= j; k++) body.push(shown(frame, ls[k]!.text));
    }
  }
  return `${frame.head}${body.join('\n')}\n${frame.tail}`;
}

/**
 * The section's size as OpenClaw counts it, kept per source as lines are added: OpenClaw's
 * char count is a sum over characters, so the section's is the head's and tail's plus each body
 * line's and its newline — and adding lines to one source changes only that source's runs.
 * (Rendering the whole section for every candidate line cost ~15 ms a prompt.)
 */
class SectionSize {
  private readonly lines = new Map<string, PackedLine[]>();
  private readonly cost = new Map<string, number>();
  private readonly memo = new Map<string, number>();
  private total: number;

  constructor(
    private readonly hits: readonly SearchResult[],
    private readonly frame: SectionFrame,
  ) {
    this.total = openclawStringChars(frame.head) + openclawStringChars(frame.tail);
  }

  private chars(text: string): number {
    let n = this.memo.get(text);
    if (n === undefined) {
      n = openclawStringChars(shown(this.frame, text));
      this.memo.set(text, n);
    }
    return n;
  }

  /** The chars of one source's runs (citation lines, the date once, the lines, a newline each). */
  private sourceChars(path: string, lines: PackedLine[]): number {
    const ls = lines.sort((a, b) => a.line - b.line);
    if (ls.length === 0) return 0;
    const day = openclawStringChars(dayOf(this.hits[ls[0]!.hit]!));
    let n = 0;
    for (const [i, j] of runsOf(ls)) {
      n += openclawStringChars(`[${cite(path, ls[i]!.line, ls[j]!.line)}]`) + (i === 0 ? day : 0) + 1;
      for (let k = i; k <= j; k++) n += this.chars(ls[k]!.text) + 1;
    }
    return n;
  }

  /** The section's chars with `add` (lines of the source `path`) added. */
  charsWith(path: string, add: readonly PackedLine[]): number {
    return this.total - (this.cost.get(path) ?? 0) + this.sourceChars(path, [...(this.lines.get(path) ?? []), ...add]);
  }

  /** Add `add` to the source `path`. */
  commit(path: string, add: readonly PackedLine[]): void {
    const next = [...(this.lines.get(path) ?? []), ...add];
    const c = this.sourceChars(path, next);
    this.total += c - (this.cost.get(path) ?? 0);
    this.lines.set(path, next);
    this.cost.set(path, c);
  }
}

/**
 * The section for `hits` (best first) within `maxTokens` as OpenClaw counts them: empty unless a
 * line scores `floor` ({@link LINE_FLOOR}); then lines down to `fill` ({@link FILL_FLOOR}) while
 * they fit. A hit without picked lines gives none (its words did not answer).
 * `seen(text)` says a line is already in front of the model (in-context dedupe); `query` is
 * what a line too long for the room is cut around.
 */
export function packSection(
  hits: readonly SearchResult[],
  maxTokens: number,
  frame: SectionFrame,
  o: { floor?: number; fill?: number; seen?: (text: string) => boolean; query?: string } = {},
): Packed {
  const q = o.query ? lineQuery(o.query, undefined, 0) : null;
  const floor = o.floor ?? LINE_FLOOR;
  const units = unitsOf(hits, Math.min(floor, o.fill ?? FILL_FLOOR));
  if (!units.some((u) => u.score >= floor)) return { text: '', used: [], lines: 0 };
  const chosen: PackedLine[] = [];
  const order: number[] = [];
  const have = new Set<string>();
  const keys = new Set<string>();
  const size = new SectionSize(hits, frame);
  const maxChars = maxTokens * 4; // ceil(chars / 4) ≤ maxTokens
  // Greedy by value, best first. (Lowering a hit's further lines to make room for other sources
  // measured worse on LoCoMo: 0.637 against 0.578 with a 0.8 decay per line taken.)
  const left = [...units].sort((a, b) => b.value - a.value || a.hit - b.hit);
  for (const u of left) {
    const path = hits[u.hit]!.path;
    const match = u.lines[u.lines.length - 1]!;
    const mkey = lineKey(match.text);
    if (have.has(`${path}#${match.line}`) || (mkey && keys.has(mkey)) || o.seen?.(match.text)) continue;
    let add: PackedLine[] = [];
    for (const l of u.lines) {
      const k = lineKey(l.text);
      if (have.has(`${path}#${l.line}`) || (k && keys.has(k) && l !== match)) continue;
      add.push({ hit: u.hit, line: l.line, text: l.text });
    }
    if (size.charsWith(path, add) > maxChars) {
      // Only the match itself, cut around its first word when still too long for the room.
      const alone = { hit: u.hit, line: match.line, text: match.text };
      add = [alone];
      if (size.charsWith(path, add) > maxChars) {
        // The room left for its text; shorter until it fits (CJK weighs more than its length).
        let room = maxChars - size.charsWith(path, [{ ...alone, text: '' }]);
        const at = q ? Math.max(0, firstTermAt(match.text, q)) : 0;
        while (room >= MIN_CUT) {
          alone.text = cutAround(match.text, at, room);
          if (size.charsWith(path, add) <= maxChars) break;
          room = Math.floor(room * 0.8);
        }
        if (room < MIN_CUT) continue;
      }
    }
    for (const l of add) {
      have.add(`${path}#${l.line}`);
      keys.add(lineKey(l.text));
    }
    size.commit(path, add);
    chosen.push(...add);
    if (!order.includes(u.hit)) order.push(u.hit);
  }
  const usedHits = [...new Set(chosen.map((l) => l.hit))].sort((a, b) => a - b);
  return { text: render(hits, order, chosen, frame), used: usedHits.map((i) => hits[i]!), lines: chosen.length };
}
