/**
 * A big memory note or transcript in a sync, in bounded memory: its content hash is computed as it is read
 * (nothing more when it did not change), then it is read again and chunked as a stream
 * (prepare-stream.ts), handed to the sync in parts of a batch's worth of chunks, each
 * embedded and written before the file is done. The whole-text path (a file's text and all
 * its chunks at once) took 1.45 GB for a 200 MB note and 610 MB for a 100 MB transcript; sync.ts writes the parts of one file
 * as one unit (a savepoint in a rebuild), so a failure still drops the file as a whole.
 */
import { createHash } from 'node:crypto';
import type { ChunkingOptions } from './chunker';
import type { PreparedChunk } from './prepare';
import { prepareChunksStream, prepareSessionStream } from './prepare-stream';
import type { SourceFile } from './sources';
import type { FileRow } from './store';
import { hashTextFile, hashedPieces, readTextPieces } from './stream-read';
import { readFailure } from './sync-files';
import { MAX_MEMORY_FILE_BYTES as MAX_SOURCE_BYTES } from '../util/safe-read';

/** Memory files larger than this are streamed; smaller ones are read whole (one read, one pass). */
export const STREAM_FROM_BYTES = 4 * 1024 * 1024;

/**
 * Whether a listed file of `size` bytes takes the streamed path: a big Markdown note or JSONL
 * transcript. A session of OpenClaw's SQLite store (virtual) is read from its rows instead.
 */
export function streamsFile(src: SourceFile, size: number): boolean {
  return !src.virtual && size > STREAM_FROM_BYTES;
}

/** Where a part stands in its file: the first opens the file's write, the last (with the files row) closes it. */
export interface FilePart {
  first: boolean;
  last: boolean;
  /** The file could not be read to its end: drop what its earlier parts wrote, report this reason. */
  failed?: string;
}

/** What streaming one file gives the sync: its parts in order, or that its content did not change. */
export type StreamStep = { unchanged: FileRow } | { file: FileRow; chunks: PreparedChunk[]; last: boolean; failed?: string };

/**
 * The parts of one big memory file or transcript, `partChunks` chunks each, the last one carrying the
 * files row with the hash of the text actually chunked. A read failure ends the stream with
 * a `failed` part (the first part, when nothing was read: nothing to undo).
 */
export async function* streamFile(src: SourceFile, st: { mtimeMs: number; size: number }, chunking: ChunkingOptions, prevHash: string | undefined, partChunks: number): AsyncGenerator<StreamStep> {
  const row = (hash: string): FileRow => ({ path: src.path, source: src.source, hash, mtime: st.mtimeMs, size: st.size });
  if (st.size > MAX_SOURCE_BYTES) {
    yield { file: row(''), chunks: [], last: true, failed: `EFBIG: larger than ${MAX_SOURCE_BYTES} bytes` };
    return;
  }
  let chunks: PreparedChunk[] = [];
  try {
    if (prevHash !== undefined) {
      // Read once to hash: an unchanged file (only its mtime moved) is not chunked at all.
      const hash = await hashTextFile(src.abs, MAX_SOURCE_BYTES);
      if (hash === prevHash) {
        yield { unchanged: row(hash) };
        return;
      }
    }
    const hasher = createHash('sha256');
    const pieces = hashedPieces(readTextPieces(src.abs, MAX_SOURCE_BYTES), hasher);
    const prepare = src.source === 'sessions' ? prepareSessionStream : prepareChunksStream;
    for await (const c of prepare(src, pieces, st.mtimeMs, chunking)) {
      chunks.push(c);
      if (chunks.length >= partChunks) {
        yield { file: row(''), chunks, last: false };
        chunks = [];
      }
    }
    yield { file: row(hasher.digest('hex')), chunks, last: true };
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    yield { file: row(''), chunks: [], last: true, failed: readFailure(err) };
  }
}
