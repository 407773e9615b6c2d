/**
 * Reading Cairn's OpenClaw recall log for the Sessions view: one JSONL file per session that
 * the plugin appends a line to before every prompt (what it searched for, what it found,
 * whether it added it to the turn). Bounded: only the last {@link MAX_READ_BYTES} of a long
 * log are read (the newest records; `truncated` says so), a line longer than
 * {@link MAX_LINE_CHARS} is skipped, and a line that does not parse or has a field of the
 * wrong kind is reported with its line number and skipped, never failing the whole read.
 */
import fs from 'node:fs';
import { z } from 'zod';
import type { RecallHitView, RecallRecordView, SessionRecallLog } from '../../../shared/contract/openclaw-recall';
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import { legacyRecallLogPath, recallLogPath } from './recall-log';

/** At most this much of the end of a log is read (about 2,000 prompts with 5 hits each). */
export const MAX_READ_BYTES = 8 * 1024 * 1024;
/** A line longer than this is reported and skipped (a record is a few KB). */
export const MAX_LINE_CHARS = 512 * 1024;

const Hit = z.object({
  citation: z.string(),
  path: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  score: z.number(),
  source: z.string(),
  snippet: z.string().default(''),
});

const Record = z.object({
  v: z.literal(1),
  ts: z.string().min(1),
  agentId: z.string(),
  sessionId: z.string(),
  sessionKey: z.string().optional(),
  turn: z.object({ promptPreview: z.string(), promptSha256: z.string() }),
  query: z.string().default(''),
  outcome: z.enum(['injected', 'none', 'timeout', 'error', 'skipped']),
  reason: z.string().optional(),
  tookMs: z.number().nonnegative(),
  hits: z.array(Hit).default([]),
  injectedChars: z.number().int().nonnegative().default(0),
});

/** Parse the text of a recall log (`firstLine`: the file line `text` starts at). */
export function parseRecallLog(text: string, firstLine = 1): Pick<SessionRecallLog, 'records' | 'malformed'> {
  const records: RecallRecordView[] = [];
  const malformed: { line: number; error: string }[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    const line = firstLine + i;
    const s = raw.trim();
    if (!s) return;
    if (s.length > MAX_LINE_CHARS) {
      malformed.push({ line, error: `line too long (${s.length} chars, at most ${MAX_LINE_CHARS} are read)` });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(s);
    } catch (err) {
      malformed.push({ line, error: `not JSON: ${(err as Error).message}` });
      return;
    }
    const r = Record.safeParse(json);
    if (!r.success) {
      const issue = r.error.issues[0];
      malformed.push({ line, error: `not a recall record: ${issue ? `${issue.path.join('.') || '(line)'}: ${issue.message}` : 'unknown shape'}` });
      return;
    }
    const d = r.data;
    records.push({
      line,
      ts: d.ts,
      agentId: d.agentId,
      sessionId: d.sessionId,
      ...(d.sessionKey !== undefined ? { sessionKey: d.sessionKey } : {}),
      promptPreview: d.turn.promptPreview,
      promptSha256: d.turn.promptSha256.toLowerCase(),
      query: d.query,
      outcome: d.outcome,
      ...(d.reason !== undefined ? { reason: d.reason } : {}),
      tookMs: d.tookMs,
      hits: d.hits as RecallHitView[],
      injectedChars: d.injectedChars,
    });
  });
  return { records, malformed };
}

/** Read the recall log at `file`: its last `maxBytes` at most, whole lines only. */
export function readRecallLogFile(file: string, maxBytes = MAX_READ_BYTES): SessionRecallLog {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { logPath: file, exists: false, records: [], malformed: [], truncated: false };
    throw new EngineError('unavailable', `cannot read the recall log ${file}: ${(err as Error).message}`);
  }
  try {
    const size = fs.fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buf = Buffer.alloc(size - start);
    let got = 0;
    while (got < buf.length) {
      const n = fs.readSync(fd, buf, got, buf.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    let text = buf.subarray(0, got).toString('utf8');
    let firstLine = 1;
    if (start > 0) {
      // Lines before the window are not counted, so numbers are relative; drop the cut first line.
      const nl = text.indexOf('\n');
      text = nl < 0 ? '' : text.slice(nl + 1);
      firstLine = countLines(fd, start) + 2;
    }
    // A line still being appended (no newline yet) is left for the next read.
    if (!text.endsWith('\n')) {
      const last = text.lastIndexOf('\n');
      const tail = text.slice(last + 1);
      if (!isCompleteJson(tail)) text = text.slice(0, last + 1);
    }
    return { logPath: file, exists: true, ...parseRecallLog(text, firstLine), truncated: start > 0 };
  } finally {
    fs.closeSync(fd);
  }
}

/** Newlines in the first `end` bytes of `fd` (read in 1 MiB pieces). */
function countLines(fd: number, end: number): number {
  const buf = Buffer.alloc(Math.min(end, 1024 * 1024));
  let n = 0;
  for (let pos = 0; pos < end; ) {
    const got = fs.readSync(fd, buf, 0, Math.min(buf.length, end - pos), pos);
    if (got === 0) break;
    for (let i = 0; i < got; i++) if (buf[i] === 10) n++;
    pos += got;
  }
  return n;
}

function isCompleteJson(s: string): boolean {
  if (!s.trim()) return true;
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * The recall log of one session of `agentId` (where the plugin's bridge writes it: recall-log.ts),
 * after what the first logs wrote for it under their old, shared name: only lines of this very
 * session (`a/b` and `a_b` wrote to one file then). Its line numbers and unreadable
 * lines are the old file's; `logPath` is where new lines go.
 */
export function readSessionRecall(ctx: EngineContext, agentId: string, sessionId: string): SessionRecallLog {
  const mine = (log: SessionRecallLog): RecallRecordView[] => log.records.filter((r) => r.agentId === agentId && r.sessionId === sessionId);
  // (A plain id's file kept its name: it may hold another session's old lines too.)
  const now = readRecallLogFile(recallLogPath(ctx, agentId, sessionId));
  const legacyPath = legacyRecallLogPath(ctx, agentId, sessionId);
  const old = legacyPath === null ? null : readRecallLogFile(legacyPath);
  if (!old?.exists) return { ...now, records: mine(now) };
  return { ...now, exists: true, records: [...mine(old), ...mine(now)], truncated: now.truncated || old.truncated };
}
