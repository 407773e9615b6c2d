/**
 * What a writer saw of a transcript, to check before it appends that nobody rewrote the file
 * since: its size and last bytes (a prefix fingerprint). Other processes — Cairn's app, CLI
 * and MCP server, and OpenClaw, which appends with O_APPEND and takes no lock of ours — may
 * append meanwhile, which keeps the prefix; a rewrite or truncation does not, and the
 * compaction that planned on the old content is refused (TranscriptChangedError) rather than
 * written against lines that are gone. Adding lines is always an append in place
 * (append.ts), never copy-and-rename: a copy made while another process appends misses its
 * lines.
 */
import fs from 'node:fs';
import { EngineError } from '../core/errors';


function readRange(file: string, from: number, to: number): Buffer {
  const buf = Buffer.alloc(Math.max(0, to - from));
  const fd = fs.openSync(file, 'r');
  try {
    let off = 0;
    while (off < buf.length) {
      const n = fs.readSync(fd, buf, off, buf.length - off, from + off);
      if (n === 0) break;
      off += n;
    }
    return off === buf.length ? buf : buf.subarray(0, off);
  } finally {
    fs.closeSync(fd);
  }
}

export interface ExpectedPrefix {
  /** The file was at least this long when it was read. */
  bytes: number;
  /** The last bytes before `bytes` as read then (a cheap check that the prefix is unchanged). */
  tail: Buffer;
}

/** The bytes to remember now so that `appendAtomic` can check nothing was rewritten since. */
export function prefixFingerprint(file: string, bytes = fs.statSync(file).size): ExpectedPrefix {
  const n = Math.min(bytes, 4096);
  return { bytes, tail: readRange(file, bytes - n, bytes) };
}

/**
 * The fingerprint of the bytes a parsed transcript came from, rebuilt from its lines without
 * reading the file: a transcript parsed earlier (asynchronously, or held in a cache) is
 * planned on only if the file's own fingerprint still equals this one. Text that was not
 * valid UTF-8 rebuilds differently and so never matches — the caller reads the file again.
 */
export function parsedFingerprint(t: { rawLines: readonly string[]; endsWithNewline: boolean; bytes: number }): ExpectedPrefix {
  const n = Math.min(t.bytes, 4096);
  let tail = t.endsWithNewline && t.rawLines.length > 0 ? '\n' : '';
  for (let i = t.rawLines.length - 1; i >= 0 && Buffer.byteLength(tail, 'utf8') < n; i--) tail = `${i > 0 ? '\n' : ''}${t.rawLines[i] ?? ''}${tail}`;
  const buf = Buffer.from(tail, 'utf8');
  return { bytes: t.bytes, tail: buf.subarray(Math.max(0, buf.length - n)) };
}

/** True when `file` still starts with the bytes `expect` was taken from. */
export function prefixUnchanged(file: string, expect: ExpectedPrefix): boolean {
  return fs.statSync(file).size >= expect.bytes && prefixFingerprint(file, expect.bytes).tail.equals(expect.tail);
}

export class TranscriptChangedError extends EngineError {
  constructor(file: string) {
    super('conflict', `${file} was rewritten by someone else while this operation ran; nothing was written`);
    this.name = 'TranscriptChangedError';
  }
}

