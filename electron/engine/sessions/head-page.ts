/**
 * The first timeline page of a big JSONL session, answered from the head of the file (issue
 * 14.2): the whole parse of a 100 MB transcript takes 2–4 s, and the first rows are all the
 * user waits for. The head (whole lines only) is parsed like the file, the page is built
 * from it and marked `partial`, and the whole parse starts in slices (load-soft.ts), so the
 * next page finds it parsed or waits for it. Only the first page of a big `jsonl` session
 * takes this way: a later page, another store, or a file already parsed goes the usual way.
 */
import fs from 'node:fs';
import type { SessionEntriesResult } from '../../../shared/types/sessions';
import type { EngineContext } from '../core/context';
import { parseTranscript } from '../transcript/parse';
import { sessionEntries } from './entries';
import { loadSoftly, SOFT_LOAD_BYTES } from './load-soft';
import type { ResolvedSession } from './resolve';
import { storeCaches } from './store/cache';

const CHUNK = 1024 * 1024;
/** Never read more than this for a first page (a page of huge lines goes the usual way). */
const HEAD_MAX_BYTES = 32 * 1024 * 1024;
/** Only a first page this small is answered from the head (the timeline asks for 80). */
const HEAD_MAX_LIMIT = 200;

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
  if (st.size < SOFT_LOAD_BYTES || storeCaches(ctx).transcript(s.file, `${st.size}:${st.mtimeMs}`)) return undefined;
  // Header + the page + slack for blank, malformed or duplicate lines the parse skips.
  const head = readHead(s.file, req.limit + 1 + 64);
  if (!head) return undefined;
  const t = parseTranscript(s.file, head.text, head.bytes);
  if (t.entries.length < req.limit) return undefined;
  const page = sessionEntries(t, { sessionId: s.sessionId, offset: 0, limit: req.limit, contextWindow: s.contextWindow });
  // The whole parse starts now, in slices (load-soft.ts); the next page waits for the same one.
  void loadSoftly(ctx, s).catch((err: unknown) => ctx.warn(`${s.file}: ${(err as Error).message}`));
  return { ...page, partial: { bytesRead: head.bytes, bytes: st.size } };
}
