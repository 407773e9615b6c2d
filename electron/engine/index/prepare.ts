/**
 * Turn one source file's text into chunk rows with their context (date, heading, whether
 * they decay): Markdown for the memory source, rendered transcripts for sessions.
 */
import type { ChunkRow } from './store';
import type { SourceFile } from './sources';
import { chunkLines, chunkMarkdown, sha256, type ChunkingOptions, type TextChunk } from './chunker';
import { contextLine, dateFromPath, headingsByLine } from './chunk-context';
import { renderSession, renderSessionLines } from './session-text';

/** A chunk row before embedding, with the hash of its body (the embedding cache key). */
export type PreparedChunk = Omit<ChunkRow, 'vector'> & { bodyHash: string };

/** UTC calendar day of a millisecond time. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The text the keyword index and the embedder see: context line, then the chunk. */
export function chunkBody(day: string | null, dated: boolean, heading: string | null, text: string): string {
  const ctx = contextLine(dated ? day : null, heading);
  return ctx ? `${ctx}\n${text}` : text;
}

/** Chunk a file and attach its context. */
export function prepareChunks(file: SourceFile, text: string, mtime: number, chunking: ChunkingOptions, lineNumbers?: number[]): PreparedChunk[] {
  return prepareRows(file, text, mtime, chunking, lineNumbers).map((c) => ({ ...c, bodyHash: sha256(c.body) }));
}

/** One chunk row of `file`: `day` dates the chunk (a real date when `dated`, else the file's mtime day). */
function chunkRow(file: SourceFile, mtime: number, c: TextChunk, heading: string | null, day: string, dated: boolean, evergreen: boolean): Omit<ChunkRow, 'vector'> {
  const body = chunkBody(day, dated, heading, c.text);
  return {
    path: file.path,
    source: file.source,
    startLine: c.startLine,
    endLine: c.endLine,
    hash: c.hash,
    text: textIn(body, c.text),
    heading,
    day,
    dated,
    evergreen,
    mtime,
    body,
  };
}

/**
 * `text` as a part of `body` (which ends with it): one string held for both instead of two
 * copies — V8 makes the body flat and slices it without copying — so a chunk row waiting to
 * be embedded and written holds its characters once (for a 200 MB note, the rows
 * in flight are most of what the main thread's heap promotes to its old generation).
 */
function textIn(body: string, text: string): string {
  return body.length === text.length ? body : body.slice(body.length - text.length);
}

/**
 * A Markdown (memory) file's chunk with its context: `heading` is the one in force at the
 * chunk's start line. Shared by the whole-text path below and the streamed one (prepare-stream.ts).
 */
export function memoryRow(file: SourceFile, mtime: number, c: TextChunk, heading: string | null): Omit<ChunkRow, 'vector'> {
  const fileDay = dateFromPath(file.path);
  // SPEC §7: MEMORY.md and undated memory files never decay.
  return chunkRow(file, mtime, c, heading, fileDay ?? dayOf(mtime), fileDay !== null, fileDay === null);
}

/** A transcript's chunk: dated by the message at its start line (`msgDay`), else the file's mtime; sessions never evergreen. */
export function sessionRow(file: SourceFile, mtime: number, c: TextChunk, msgDay: string | null): Omit<ChunkRow, 'vector'> {
  return chunkRow(file, mtime, c, null, msgDay ?? dayOf(mtime), msgDay !== null, false);
}

/** `lineNumbers`: the transcript line of each line of `text`, for a store session whose lines are not 1, 2, 3… */
function prepareRows(file: SourceFile, text: string, mtime: number, chunking: ChunkingOptions, lineNumbers?: number[]): Omit<ChunkRow, 'vector'>[] {
  if (file.source === 'sessions') {
    const { lines, dayByLine } = lineNumbers ? renderSessionLines(file.path, text.split('\n'), lineNumbers) : renderSession(text, file.path);
    return chunkLines(lines, chunking).map((c) => sessionRow(file, mtime, c, dayByLine.get(c.startLine) ?? null));
  }
  const headings = headingsByLine(text.split('\n'));
  return chunkMarkdown(text, chunking).map((c) => memoryRow(file, mtime, c, headings[c.startLine] ?? null));
}
