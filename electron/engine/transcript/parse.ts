/**
 * Parsing transcript JSONL (SPEC §1.1). One pass, one JSON.parse per line, nothing else:
 * a 50 MB file must load in well under a second. Bad lines are collected with their line
 * number and skipped; every line's original text is kept so a rewrite is byte-for-byte.
 * parseTranscriptSliced runs the same pass in slices for the engine's big files.
 */
import { entryProblem } from './entry-shape';
import type { Entry, MalformedLine, SessionHeader, Transcript } from './types';

const PREVIEW = 120;

function malformed(file: string, line: number, error: string, text: string): MalformedLine {
  return { file, line, error, preview: text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text };
}

/**
 * The parse of one line at a time, with what it needs of the lines before it (the header,
 * the ids seen): shared by the whole-file parsers below and the index's streamed read of a
 * big transcript (index/prepare-stream.ts), which never holds the file whole.
 */
export class TranscriptLineParser {
  header: SessionHeader | undefined;
  /** Lines that are not entries, with why (a streamed reader may empty it as it goes). */
  readonly bad: MalformedLine[] = [];
  /** Entry id → its index among the entries parsed so far. */
  readonly byId = new Map<string, number>();

  constructor(readonly file: string) {}

  /** The entry on line `lineNo`, or undefined (a blank, malformed or header line). `torn`: the file's last line, with no newline after it. */
  line(raw: string, lineNo: number, torn: boolean): Entry | undefined {
    const file = this.file;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      if (raw.trim() === '') return undefined; // blank lines carry nothing; they stay in rawLines
      this.bad.push(malformed(file, lineNo, `${torn ? 'torn final line (no newline): ' : ''}${(err as Error).message}`, raw));
      return undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.bad.push(malformed(file, lineNo, 'not a JSON object', raw));
      return undefined;
    }
    const obj = value as Record<string, unknown>;
    if (typeof obj.type !== 'string') {
      this.bad.push(malformed(file, lineNo, 'no "type" field', raw));
      return undefined;
    }
    if (obj.type === 'session') {
      if (this.header === undefined && this.byId.size === 0) this.header = obj as SessionHeader;
      else this.bad.push(malformed(file, lineNo, 'a second session header', raw));
      return undefined;
    }
    if (typeof obj.id !== 'string' || obj.id === '') {
      this.bad.push(malformed(file, lineNo, `entry of type "${obj.type}" has no "id"`, raw));
      return undefined;
    }
    const problem = entryProblem(obj, raw);
    if (problem) {
      this.bad.push(malformed(file, lineNo, `entry "${obj.id}" of type "${obj.type}": ${problem}`, raw));
      return undefined;
    }
    if (this.byId.has(obj.id)) {
      this.bad.push(malformed(file, lineNo, `duplicate entry id "${obj.id}"`, raw));
      return undefined;
    }
    this.byId.set(obj.id, this.byId.size);
    return obj as Entry;
  }
}

/** The one-pass parser over the lines of `text`, run in one go or in slices. */
function lineParser(file: string, text: string, bytes: number) {
  const rawLines = text.split('\n');
  const endsWithNewline = text.length === 0 || text.endsWith('\n');
  // "a\nb\n".split gives a trailing "" that is not a line.
  if (endsWithNewline) rawLines.pop();
  return linesParser(file, rawLines, endsWithNewline, bytes, undefined);
}

/**
 * The parser over `rawLines`; `lineNumbers[i]` is the line of `rawLines[i]` when the lines
 * are not numbered 1, 2, 3… (a store whose line numbers have gaps).
 */
function linesParser(file: string, rawLines: string[], endsWithNewline: boolean, bytes: number, lineNumbers: number[] | undefined) {
  const entries: Entry[] = [];
  const entryLines: number[] = [];
  const p = new TranscriptLineParser(file);
  const bad = p.bad;
  const byId = p.byId;

  /** Parse lines [from, to). */
  const run = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const lineNo = lineNumbers ? (lineNumbers[i] as number) : i + 1;
      const entry = p.line(rawLines[i] as string, lineNo, i === rawLines.length - 1 && !endsWithNewline);
      if (entry === undefined) continue;
      entries.push(entry);
      entryLines.push(lineNo);
    }
  };
  const finish = (): Transcript => {
    const first = lineNumbers ? (lineNumbers[0] ?? 1) : 1;
    const header = p.header;
    if (header === undefined && rawLines.length > 0 && bad[0]?.line !== first) {
      bad.unshift(malformed(file, first, `line ${first} is not a session header ({"type":"session",...})`, rawLines[0] ?? ''));
    }
    return { file, header, entries, entryLines, rawLines, ...(lineNumbers ? { lineNumbers } : {}), malformed: bad, endsWithNewline, bytes, byId };
  };
  return { lines: rawLines.length, run, finish };
}

/** Parse the text of a transcript file. `bytes` is the file size (for append bookkeeping). */
export function parseTranscript(file: string, text: string, bytes = Buffer.byteLength(text, 'utf8')): Transcript {
  const p = lineParser(file, text, bytes);
  p.run(0, p.lines);
  return p.finish();
}

/**
 * Parse lines that carry their own line numbers (`lineNumbers[i]` for `lines[i]`, ascending,
 * gaps allowed): a gap costs nothing, where padding it with blank lines would cost a line
 * each. The transcript's `lineNumbers` keeps them (rawLines[i] is not line i + 1 then).
 */
export function parseNumberedLines(file: string, lines: string[], lineNumbers: number[], bytes: number): Transcript {
  const p = linesParser(file, lines, true, bytes, lineNumbers);
  p.run(0, p.lines);
  return p.finish();
}

/**
 * The same parse in slices of `slice` lines, awaiting `yieldNow()` between them, so the
 * engine answers other calls while a 100 MB transcript is parsed. The result
 * is the one parseTranscript gives.
 */
export async function parseTranscriptSliced(file: string, text: string, bytes: number, yieldNow: () => Promise<void>, slice = 1000): Promise<Transcript> {
  const p = lineParser(file, text, bytes);
  for (let from = 0; from < p.lines; from += slice) {
    p.run(from, Math.min(p.lines, from + slice));
    await yieldNow();
  }
  return p.finish();
}
