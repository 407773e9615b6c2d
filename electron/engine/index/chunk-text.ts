/**
 * A chunk's text as the index stores it (schema 10): raw DEFLATE of its UTF-8 (level 6), a
 * BLOB — 54 % of the bytes on the bench corpus, the largest column of the index (1.4 KB a
 * chunk). Only results (snippets, cited lines, annotations) and memory-health read it, a few
 * dozen chunks per search (≈ 25 µs each); the keyword tables are contentless and never do.
 * An index written before keeps TEXT, which reads as it is.
 */
import zlib from 'node:zlib';

/** `text` as stored in `chunks.text`. */
export function packText(text: string): Buffer {
  return zlib.deflateRawSync(Buffer.from(text, 'utf8'));
}

/** A `chunks.text` value back to the text: a BLOB is inflated, TEXT (an older index) returned as is. */
export function unpackText(stored: string | Uint8Array): string {
  return typeof stored === 'string' ? stored : zlib.inflateRawSync(stored).toString('utf8');
}
