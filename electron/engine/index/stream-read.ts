/**
 * Reading a big source file as text in pieces, for the index's streamed path (a memory note of
 * hundreds of MB is never held whole). Same guards as util/safe-read.ts: opened O_NONBLOCK and
 * checked on the open descriptor, so a FIFO or device is refused before a byte is read, and
 * the read is capped. Bytes are decoded with a streaming UTF-8 decoder, which never splits a
 * character between pieces, so the pieces joined are the text `Buffer.toString('utf8')` gives.
 */
import fs from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { NotRegularFileError } from '../util/safe-read';

/**
 * Bytes read per piece. Small enough that a piece, even decoded as a two-byte string (one
 * CJK character makes the whole piece two bytes a char), stays under V8's large-object size
 * (128 KiB): it is then young garbage, freed by the next scavenge once its lines are chunked,
 * where a 1 MiB piece (2 MiB as a string) went straight to the old generation and stayed
 * there until a full GC (a 200 MB note's peak RSS: docs/benchmarks.md, "200 MB note").
 */
const PIECE_BYTES = 1 << 15;

const FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/** The file is past the size cap (it grew since it was listed). */
function tooBig(file: string, maxBytes: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`larger than ${maxBytes} bytes`), { code: 'EFBIG', path: file });
}

/**
 * The text of the regular file `file`, in pieces of about `pieceBytes` bytes. Throws EFBIG
 * past `maxBytes`, NotRegularFileError for a FIFO/device/directory, and read errors as they come.
 */
export async function* readTextPieces(file: string, maxBytes: number, pieceBytes = PIECE_BYTES): AsyncGenerator<string> {
  const fh = await fs.promises.open(file, FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new NotRegularFileError(file, 'not a regular file');
    const decoder = new StringDecoder('utf8');
    const buf = Buffer.alloc(Math.max(1, pieceBytes));
    let total = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw tooBig(file, maxBytes);
      const text = decoder.write(buf.subarray(0, bytesRead));
      if (text) yield text;
    }
    const tail = decoder.end();
    if (tail) yield tail;
  } finally {
    await fh.close();
  }
}

/** `pieces` passed through, each also fed to `hash` (the sha256 of the whole text, as chunker's sha256 gives). */
export async function* hashedPieces(pieces: AsyncIterable<string>, hash: Hash): AsyncGenerator<string> {
  for await (const p of pieces) {
    hash.update(p);
    yield p;
  }
}

/** sha256 hex of a file's text, read in pieces (same value as `sha256(text)` of the whole text). */
export async function hashTextFile(file: string, maxBytes: number): Promise<string> {
  const hash = createHash('sha256');
  for await (const p of readTextPieces(file, maxBytes)) hash.update(p);
  return hash.digest('hex');
}
