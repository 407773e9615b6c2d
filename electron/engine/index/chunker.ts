/**
 * Line-based chunking (SPEC §6, OpenClaw-compatible): lines are gathered until the chunk
 * would exceed `tokens × 4` weighted chars, then the chunk is cut and its last lines (about
 * `overlap × 4` chars) start the next one. CJK characters weigh 4 (≈ one token each) so a
 * Chinese note is not packed 4× denser than an English one. A line longer than a chunk is
 * hard-split, never inside a surrogate pair. Each chunk keeps its 1-based start/end line.
 */
import { createHash } from 'node:crypto';
import { charWeight, weightedLength } from '../../../shared/text/cjk';

/** One logical input line with its line number in the source file. */
export interface SourceLine {
  text: string;
  lineNo: number;
}

/** A chunk of one file (SPEC §6: `{path, startLine, endLine, text, hash}` minus the path). */
export interface TextChunk {
  startLine: number;
  endLine: number;
  text: string;
  /** sha256 of `text` (hex). */
  hash: string;
}

export interface ChunkingOptions {
  /** Target size in tokens; chunks hold about `tokens × 4` chars. */
  tokens: number;
  /** Overlap in tokens carried into the next chunk. */
  overlap: number;
}

/** sha256 hex of a string. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Split one line into segments of at most `maxWeight` weighted chars, cutting only between
 * code points (a surrogate pair is never split).
 */
export function hardSplit(line: string, maxWeight: number): string[] {
  if (weightedLength(line) <= maxWeight) return [line];
  const out: string[] = [];
  let cur = '';
  let w = 0;
  for (const ch of line) {
    const cw = charWeight(ch);
    if (w + cw > maxWeight && cur) {
      out.push(cur);
      cur = '';
      w = 0;
    }
    cur += ch;
    w += cw;
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * Bumped whenever the chunker's output changes for the same settings, so existing indexes
 * are rebuilt (2: a final newline no longer adds an empty last line; 3: session transcripts
 * render compaction summaries as `Summary: …` lines, which an index built before lacks).
 */
export const CHUNKER_VERSION = 3;

/** A line (or a hard-split segment of one) in the chunk being built. */
type Entry = { text: string; lineNo: number; weight: number };

/**
 * The chunker fed one line at a time: `push` returns the chunks a line completes, `end` the
 * last one. Holds only the chunk being built, so a file of any size can be chunked as it is
 * read (index/prepare-stream.ts); `chunkLines` is this over a whole list.
 */
export class LineChunker {
  private readonly maxWeight: number;
  private readonly overlapWeight: number;
  private current: Entry[] = [];
  private currentWeight = 0;

  constructor(opts: ChunkingOptions) {
    this.maxWeight = Math.max(32, opts.tokens * 4);
    this.overlapWeight = Math.max(0, Math.min(opts.overlap * 4, this.maxWeight - 1));
  }

  /** Add the next line; returns the chunks it completed (usually none, more than one for a long line). */
  push(line: SourceLine): TextChunk[] {
    const out: TextChunk[] = [];
    for (const segment of line.text.length === 0 ? [''] : hardSplit(line.text, this.maxWeight)) this.addSegment(segment, line.lineNo, out);
    return out;
  }

  /** The line being fed in parts (pushPart): its segment so far, and whether it gave one already. */
  private part = { text: '', weight: 0, gave: false };

  /**
   * Add the next part of a line too long to hold whole (`end`: its last part). The line is
   * cut into the segments `hardSplit` would give the whole line, so the chunks are those of
   * `push` with the whole line; only the segment being filled is held.
   */
  pushPart(text: string, lineNo: number, end: boolean): TextChunk[] {
    const out: TextChunk[] = [];
    const p = this.part;
    for (const ch of text) {
      const cw = charWeight(ch);
      if (p.weight + cw > this.maxWeight && p.text) {
        this.addSegment(p.text, lineNo, out);
        p.gave = true;
        p.text = '';
        p.weight = 0;
      }
      p.text += ch;
      p.weight += cw;
    }
    if (end) {
      if (p.text || !p.gave) this.addSegment(p.text, lineNo, out);
      this.part = { text: '', weight: 0, gave: false };
    }
    return out;
  }

  private addSegment(segment: string, lineNo: number, out: TextChunk[]): void {
    const weight = weightedLength(segment) + 1;
    if (this.currentWeight + weight > this.maxWeight && this.current.length > 0) {
      this.flush(out);
      this.carryOverlap();
      // The carried overlap plus this segment must still fit, or the next chunk would be
      // cut right away and hold nothing but the overlap again.
      while (this.current.length > 0 && this.currentWeight + weight > this.maxWeight) {
        this.currentWeight -= this.current.shift()!.weight;
      }
    }
    this.current.push({ text: segment, lineNo, weight });
    this.currentWeight += weight;
  }

  /** The first line of the chunk being built: no later chunk starts before it. */
  get windowStart(): number | undefined {
    return this.current[0]?.lineNo;
  }

  /** The last chunk (none when nothing is left or it holds only blank lines). */
  end(): TextChunk[] {
    const out: TextChunk[] = [];
    this.flush(out);
    this.current = [];
    this.currentWeight = 0;
    return out;
  }

  private flush(out: TextChunk[]): void {
    const first = this.current[0];
    const last = this.current[this.current.length - 1];
    if (!first || !last) return;
    const text = this.current.map((e) => e.text).join('\n');
    // A file of only blank lines gives chunks with no content: not worth indexing.
    if (text.trim().length > 0) out.push({ startLine: first.lineNo, endLine: last.lineNo, text, hash: sha256(text) });
  }

  // Keep the tail of the chunk just cut (at least `overlapWeight`), as OpenClaw does.
  private carryOverlap(): void {
    if (this.overlapWeight <= 0) {
      this.current = [];
      this.currentWeight = 0;
      return;
    }
    let acc = 0;
    const kept: Entry[] = [];
    for (let i = this.current.length - 1; i >= 0; i--) {
      const e = this.current[i]!;
      acc += e.weight;
      kept.unshift(e);
      if (acc >= this.overlapWeight) break;
    }
    this.current = kept;
    this.currentWeight = acc;
  }
}

/** Chunk logical lines (Markdown lines or rendered transcript lines). */
export function chunkLines(lines: readonly SourceLine[], opts: ChunkingOptions): TextChunk[] {
  const chunker = new LineChunker(opts);
  const chunks: TextChunk[] = [];
  for (const line of lines) for (const c of chunker.push(line)) chunks.push(c);
  for (const c of chunker.end()) chunks.push(c);
  return chunks;
}

/** Chunk a Markdown file's text: lines are split on `\n` (a trailing `\r` is dropped). */
export function chunkMarkdown(text: string, opts: ChunkingOptions): TextChunk[] {
  const parts = text.split('\n');
  // A final newline ends the last line; it does not start another (a 5-line file is L1-L5).
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const lines = parts.map((t, i) => ({ text: t.endsWith('\r') ? t.slice(0, -1) : t, lineNo: i + 1 }));
  return chunkLines(lines, opts);
}
