/**
 * Turn one source file's text into chunk rows with their context (date, heading, whether
 * they decay): Markdown for the memory source, rendered transcripts for sessions.
 */
import type { ChunkRow } from './store';
import type { SourceFile } from './sources';
import { chunkLines, chunkMarkdown, sha256, type ChunkingOptions } from './chunker';
import { contextLine, dateFromPath, headingsByLine } from './chunk-context';
import { renderSession } from './session-text';

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
export function prepareChunks(file: SourceFile, text: string, mtime: number, chunking: ChunkingOptions): PreparedChunk[] {
  return prepareRows(file, text, mtime, chunking).map((c) => ({ ...c, bodyHash: sha256(c.body) }));
}

function prepareRows(file: SourceFile, text: string, mtime: number, chunking: ChunkingOptions): Omit<ChunkRow, 'vector'>[] {
  if (file.source === 'sessions') {
    const { lines, dayByLine } = renderSession(text);
    return chunkLines(lines, chunking).map((c) => {
      const msgDay = dayByLine.get(c.startLine) ?? null;
      const day = msgDay ?? dayOf(mtime);
      return {
        path: file.path,
        source: file.source,
        startLine: c.startLine,
        endLine: c.endLine,
        hash: c.hash,
        text: c.text,
        heading: null,
        day,
        dated: msgDay !== null,
        evergreen: false,
        mtime,
        body: chunkBody(day, msgDay !== null, null, c.text),
      };
    });
  }
  const fileDay = dateFromPath(file.path);
  const lines = text.split('\n');
  const headings = headingsByLine(lines);
  return chunkMarkdown(text, chunking).map((c) => {
    const heading = headings[c.startLine] ?? null;
    const day = fileDay ?? dayOf(mtime);
    return {
      path: file.path,
      source: file.source,
      startLine: c.startLine,
      endLine: c.endLine,
      hash: c.hash,
      text: c.text,
      heading,
      day,
      dated: fileDay !== null,
      // SPEC §7: MEMORY.md and undated memory files never decay.
      evergreen: fileDay === null,
      mtime,
      body: chunkBody(day, fileDay !== null, heading, c.text),
    };
  });
}
