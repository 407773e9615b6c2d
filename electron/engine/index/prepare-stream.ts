/**
 * A file chunked as it is read, for files too big to hold whole: the text arrives in pieces
 * (stream-read.ts) and is cut into lines. A memory (Markdown) note's lines go through the same
 * chunker (LineChunker) and heading tracker as the whole-text path (prepare.ts); a transcript's
 * lines through the same line parser (transcript/parse.ts) and rendering (session-text.ts)
 * first. Either way the chunks are exactly the ones `prepareChunks` gives for the whole text,
 * and memory is the chunk being built plus the current line, whatever the file's size.
 */
import type { SourceFile } from './sources';
import { LineChunker, sha256, type ChunkingOptions, type TextChunk } from './chunker';
import { HeadingTracker, LONG_LINE_CHARS } from './chunk-context';
import { memoryRow, sessionRow, type PreparedChunk } from './prepare';
import { entryDay, renderEntry } from './session-text';
import { TranscriptLineParser } from '../transcript/parse';

/**
 * Cut text pieces into lines the way `chunkMarkdown` splits a whole text: on `\n`, and a final
 * newline ends the last line rather than starting an empty one. Yields the raw line (with a
 * trailing `\r` if any) and its 1-based number.
 */
export async function* linesOf(pieces: AsyncIterable<string>): AsyncGenerator<{ raw: string; lineNo: number }> {
  let parts: string[] = []; // the current line so far, in pieces (a long line is not re-joined per piece)
  let lineNo = 0;
  let sawNewline = false;
  for await (const piece of pieces) {
    let from = 0;
    for (let nl = piece.indexOf('\n'); nl !== -1; nl = piece.indexOf('\n', from)) {
      parts.push(piece.slice(from, nl));
      yield { raw: parts.length === 1 ? parts[0]! : parts.join(''), lineNo: ++lineNo };
      parts = [];
      sawNewline = true;
      from = nl + 1;
    }
    if (from < piece.length) parts.push(piece.slice(from));
  }
  const rest = parts.join('');
  if (rest !== '' || !sawNewline) yield { raw: rest, lineNo: ++lineNo };
}

/** A line, or a part of one longer than {@link LONG_LINE_CHARS} (`first` / `end`: its first / last part). */
export interface LinePart {
  text: string;
  lineNo: number;
  first: boolean;
  end: boolean;
}

/**
 * `linesOf` for a Markdown note, except that a line longer than `longChars` is given in parts
 * of about that size as it is read instead of whole (first/end mark them), so a note that is
 * one 200 MB line is never held whole.
 */
export async function* lineParts(pieces: AsyncIterable<string>, longChars = LONG_LINE_CHARS): AsyncGenerator<LinePart> {
  let parts: string[] = [];
  let held = 0; // chars in `parts`
  let lineNo = 1;
  let started = false; // the current line gave a part already
  let sawNewline = false;
  const take = (tail: string): string => {
    parts.push(tail);
    const text = parts.length === 1 ? parts[0]! : parts.join('');
    parts = [];
    held = 0;
    return text;
  };
  for await (const piece of pieces) {
    let from = 0;
    for (let nl = piece.indexOf('\n'); nl !== -1; nl = piece.indexOf('\n', from)) {
      yield { text: take(piece.slice(from, nl)), lineNo, first: !started, end: true };
      lineNo++;
      started = false;
      sawNewline = true;
      from = nl + 1;
    }
    if (from < piece.length) {
      parts.push(piece.slice(from));
      held += piece.length - from;
      if (held > longChars) {
        yield { text: take(''), lineNo, first: !started, end: false };
        started = true;
      }
    }
  }
  if (started || held > 0 || !sawNewline) yield { text: take(''), lineNo, first: !started, end: true };
}

/** The chunks of a memory file read as `pieces`, in order, each with its context (as prepareChunks). */
export async function* prepareChunksStream(file: SourceFile, pieces: AsyncIterable<string>, mtime: number, chunking: ChunkingOptions): AsyncGenerator<PreparedChunk> {
  const chunker = new LineChunker(chunking);
  const headings = new HeadingTracker();
  // The heading in force at each line still in the chunker's window (a chunk takes its start line's).
  const headingAt = new Map<number, string | null>();
  let oldest = 1;
  let heldCr = false; // a long line's part ended in \r: whether it ends the line is known with the next part
  const rowOf = (c: TextChunk): PreparedChunk => {
    const row = memoryRow(file, mtime, c, headingAt.get(c.startLine) ?? null);
    return { ...row, bodyHash: sha256(row.body) };
  };
  for await (const { text, lineNo, first, end } of lineParts(pieces)) {
    // A long line's first part holds more than the line head the heading rule reads (chunk-context.ts).
    if (first) headingAt.set(lineNo, headings.next(text));
    let out: TextChunk[];
    if (first && end) out = chunker.push({ text: text.endsWith('\r') ? text.slice(0, -1) : text, lineNo });
    else {
      let t: string = heldCr ? `\r${text}` : text;
      heldCr = t.endsWith('\r');
      if (heldCr) t = t.slice(0, -1); // dropped at the line's end, put back before its next part
      if (end) heldCr = false;
      out = chunker.pushPart(t, lineNo, end);
    }
    for (const c of out) yield rowOf(c);
    // No later chunk starts before the chunker's window: the headings of earlier lines are done with.
    const start = chunker.windowStart ?? lineNo;
    for (; oldest < start; oldest++) headingAt.delete(oldest);
  }
  for (const c of chunker.end()) yield rowOf(c);
}

/**
 * The chunks of a transcript (sessions source) read as `pieces`, in order, as prepareChunks
 * renders and chunks the whole file: each JSONL line parsed as the transcript parser does
 * (the ids seen are kept to skip a duplicate, as it does; malformed lines are skipped and not
 * kept), rendered `User: …` / `Assistant: …` / `Summary: …`, and dated by its message.
 */
export async function* prepareSessionStream(file: SourceFile, pieces: AsyncIterable<string>, mtime: number, chunking: ChunkingOptions): AsyncGenerator<PreparedChunk> {
  const parser = new TranscriptLineParser(file.path);
  const chunker = new LineChunker(chunking);
  // The message day of each rendered line still in the chunker's window (a chunk takes its start line's).
  const dayAt = new Map<number, string>();
  const rowOf = (c: TextChunk): PreparedChunk => {
    const row = sessionRow(file, mtime, c, dayAt.get(c.startLine) ?? null);
    return { ...row, bodyHash: sha256(row.body) };
  };
  for await (const { raw, lineNo } of linesOf(pieces)) {
    // Whether the last line is torn only words the malformed-line report, which the index does not keep.
    const entry = parser.line(raw, lineNo, false);
    parser.bad.length = 0;
    if (entry === undefined) continue;
    const text = renderEntry(entry);
    if (text === undefined) continue;
    const day = entryDay(entry);
    if (day !== undefined) dayAt.set(lineNo, day);
    for (const c of chunker.push({ text, lineNo })) yield rowOf(c);
    const start = chunker.windowStart ?? lineNo;
    for (const k of dayAt.keys()) {
      if (k >= start) break; // keys are in line order
      dayAt.delete(k);
    }
  }
  for (const c of chunker.end()) yield rowOf(c);
}
