/**
 * Turn one source file's text into chunk rows with their context (date, heading, whether
 * they decay): Markdown for the memory source, rendered transcripts for sessions.
 */
import type { ChunkRow } from './store';
import type { SourceFile } from './sources';
import { chunkLines, chunkMarkdown, sha256, type ChunkingOptions } from './chunker';
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

/** `lineNumbers`: the transcript line of each line of `text`, for a store session whose lines are not 1, 2, 3… */
function prepareRows(file: SourceFile, text: string, mtime: number, chunking: ChunkingOptions, lineNumbers?: number[]): Omit<ChunkRow, 'vector'>[] {
  type Chunked = { startLine: number; endLine: number; hash: string; text: string };
  /** One row: `day` dates the chunk (a real date when `dated`, else the file's mtime day). */
  const row = (c: Chunked, heading: string | null, day: string, dated: boolean, evergreen: boolean): Omit<ChunkRow, 'vector'> => ({
    path: file.path,
    source: file.source,
    startLine: c.startLine,
    endLine: c.endLine,
    hash: c.hash,
    text: c.text,
    heading,
    day,
    dated,
    evergreen,
    mtime,
    body: chunkBody(day, dated, heading, c.text),
  });
  if (file.source === 'sessions') {
    const { lines, dayByLine } = lineNumbers ? renderSessionLines(file.path, text.split('\n'), lineNumbers) : renderSession(text, file.path);
    return chunkLines(lines, chunking).map((c) => {
      const msgDay = dayByLine.get(c.startLine) ?? null;
      return row(c, null, msgDay ?? dayOf(mtime), msgDay !== null, false);
    });
  }
  const fileDay = dateFromPath(file.path);
  const headings = headingsByLine(text.split('\n'));
  // SPEC §7: MEMORY.md and undated memory files never decay.
  return chunkMarkdown(text, chunking).map((c) => row(c, headings[c.startLine] ?? null, fileDay ?? dayOf(mtime), fileDay !== null, fileDay === null));
}
