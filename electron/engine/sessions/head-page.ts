/**
 * The first timeline page of a big JSONL session, answered from the head of the file (issue
 * 14.2): the whole parse of a 100 MB transcript takes 2–4 s, and the first rows are all the
 * user waits for. The head (whole lines only) is parsed like the file, the page is built
 * from it and marked `partial`, and the whole parse runs right after the answer, so the next
 * page finds the transcript parsed. Only the first page of a `jsonl` session takes this way:
 * a later page, another store, or a file already parsed by this engine goes the usual way.
 */
import fs from 'node:fs';
import type { SessionEntriesResult } from '../../../shared/types/sessions';
import type { ContextSlot, EngineContext } from '../context';
import { parseTranscript } from '../transcript/parse';
import { sessionEntries } from './entries';
import type { ResolvedSession } from './resolve';

/** Below this a whole parse is quick enough (well under the 1 s budget on a loaded machine). */
const HEAD_MIN_BYTES = 8 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/** Never read more than this for a first page (a page of huge lines goes the usual way). */
const HEAD_MAX_BYTES = 32 * 1024 * 1024;
/** Only a first page this small is answered from the head (the timeline asks for 80). */
const HEAD_MAX_LIMIT = 200;

/** The stamp (size:mtime) at which this engine last parsed (or scheduled the parse of) each big file whole. */
const parsedSlot: ContextSlot<Map<string, string>> = { name: 'parsed big transcripts', create: () => new Map() };

const stampOf = (st: fs.Stats) => `${st.size}:${st.mtimeMs}`;

/** Remember that `s` is parsed whole at its current stamp (the store holds it now). */
export function markParsed(ctx: EngineContext, s: ResolvedSession): void {
  if (s.store !== 'jsonl') return;
  try {
    const st = fs.statSync(s.file);
    if (st.size >= HEAD_MIN_BYTES) ctx.member(parsedSlot).set(s.file, stampOf(st));
  } catch {
    // gone meanwhile: the next load says so
  }
}

/** The whole lines of the head of `file` holding at least `lines` lines, or undefined (EOF or too big). */
function readHead(file: string, lines: number): { text: string; bytes: number } | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const parts: Buffer[] = [];
    let read = 0;
    let newlines = 0;
    let lastNewline = -1;
    for (;;) {
      if (read >= HEAD_MAX_BYTES) return undefined;
      const buf = Buffer.allocUnsafe(CHUNK);
      const n = fs.readSync(fd, buf, 0, CHUNK, read);
      if (n === 0) return undefined; // the whole file is short of `lines`: the usual way is as quick
      for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) {
        newlines++;
        lastNewline = read + i;
      }
      parts.push(buf.subarray(0, n));
      read += n;
      if (newlines >= lines) break;
    }
    // Cut after the last newline: a line the chunk split is not parsed (it would look malformed).
    const all = Buffer.concat(parts).subarray(0, lastNewline + 1);
    return { text: all.toString('utf8'), bytes: all.length };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The first page of `s` from its file's head, or undefined when the usual way is as good
 * (a small file, a later page, a file already parsed, another store). Schedules the whole
 * parse after the answer.
 */
export function firstPageFromHead(ctx: EngineContext, s: ResolvedSession, req: { offset: number; limit: number }): SessionEntriesResult | undefined {
  if (s.store !== 'jsonl' || req.offset !== 0 || req.limit > HEAD_MAX_LIMIT) return undefined;
  const st = fs.statSync(s.file);
  if (st.size < HEAD_MIN_BYTES || ctx.member(parsedSlot).get(s.file) === stampOf(st)) return undefined;
  // Header + the page + slack for blank, malformed or duplicate lines the parse skips.
  const head = readHead(s.file, req.limit + 1 + 64);
  if (!head) return undefined;
  const t = parseTranscript(s.file, head.text, head.bytes);
  if (t.entries.length < req.limit) return undefined;
  const page = sessionEntries(t, { sessionId: s.sessionId, offset: 0, limit: req.limit, contextWindow: s.contextWindow });
  // The whole parse right after this answer is sent; the next page then finds it in the store
  // (marked now: a request that comes before it runs parses the usual way, never a second head).
  ctx.member(parsedSlot).set(s.file, stampOf(st));
  setImmediate(() => {
    try {
      s.load();
    } catch (err) {
      ctx.warn(`${s.file}: ${(err as Error).message}`);
    }
  });
  return { ...page, partial: { bytesRead: head.bytes, bytes: st.size } };
}
