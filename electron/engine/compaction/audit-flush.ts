/**
 * "What the flush before this compaction wrote", as far as the files tell. Notes
 * carry no history of which line was written when, so the rule is deterministic and said in
 * docs/audit.md:
 *
 * - Whether a flush ran, and when: a record of OpenClaw's compactions that Cairn's OpenClaw plugin
 *   writes to `<settingsDir>/openclaw-compactions.jsonl` (`{ts, sessionId, tokensBefore,
 *   flushRan, flushAt}`, matched by session and time or tokensBefore); else the session row's
 *   `memoryFlushAt` when it falls between the previous compaction (or the session start) and
 *   this one; else unknown (`ran: null`) — OpenClaw's own flush leaves nothing in the transcript.
 * - What it wrote: the lines of the daily notes `memory/YYYY-MM-DD.md` of the days around the
 *   flush (or, unknown, the compaction: 36 h before to 14 h after, for time zones), plus any
 *   other memory note changed between the window's start and the compaction. A note changed
 *   after the compaction too may hold later lines: the answer says `approximate`.
 * - A recorded "did not run" wrote nothing.
 * Read only: nothing here writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AuditFlush } from '../../../shared/types/audit';
import type { SessionIndexEntry } from '../transcript/sessions-index';

/** One line of `<settingsDir>/openclaw-compactions.jsonl` (Cairn's OpenClaw plugin). */
export interface CompactionRecord {
  ts: number | string;
  agentId?: string;
  sessionId?: string;
  sessionKey?: string;
  tokensBefore?: number;
  tokensAfter?: number;
  flushRan?: boolean;
  flushAt?: number | string | null;
}

/** The records file's name in Cairn's settings dir. */
export const COMPACTION_RECORDS_FILE = 'openclaw-compactions.jsonl';

const msOf = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const n = Date.parse(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
};

/** The records of `sessionId` (absent or unreadable file: none; bad lines are skipped). */
export function readCompactionRecords(settingsDir: string, sessionId: string): CompactionRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(settingsDir, COMPACTION_RECORDS_FILE), 'utf8');
  } catch {
    return [];
  }
  const out: CompactionRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as CompactionRecord;
      if (r && typeof r === 'object' && r.sessionId === sessionId) out.push(r);
    } catch {
      // a torn last line, or not ours: skipped
    }
  }
  return out;
}

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Non-empty, non-heading lines of a note with their line numbers. */
function noteLines(file: string, rel: string): AuditFlush['wrote'] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: AuditFlush['wrote'] = [];
  text.split('\n').forEach((l, i) => {
    const t = l.trim();
    if (t && !/^#{1,6}\s/.test(t)) out.push({ path: rel, line: i + 1, text: t });
  });
  return out;
}

export interface FlushEvidenceInput {
  workspace: string;
  records: readonly CompactionRecord[];
  entry: SessionIndexEntry | undefined;
  /** Previous compaction (or session start) and this compaction, ms. */
  fromMs: number | undefined;
  toMs: number;
  tokensBefore: number | undefined;
  /** The flush threshold of the session's window (tokens). */
  flushThreshold?: number | undefined;
}

/** What the state dir tells about the flush before one compaction. */
export function flushEvidence(input: FlushEvidenceInput): AuditFlush {
  const { toMs } = input;
  const threshold = input.flushThreshold;
  const under = threshold !== undefined && input.tokensBefore !== undefined ? threshold - input.tokensBefore : undefined;
  const base = { threshold, underThreshold: under };
  // 1. the plugin's compaction records: the one nearest in time (within 10 minutes), or with the same tokensBefore.
  let rec: CompactionRecord | undefined;
  let best = Infinity;
  for (const r of input.records) {
    const ts = msOf(r.ts);
    const d = ts === undefined ? Infinity : Math.abs(ts - toMs);
    const same = input.tokensBefore !== undefined && r.tokensBefore === input.tokensBefore;
    if ((d <= 600_000 || same) && (same ? -1 : d) < best) {
      best = same ? -1 : d;
      rec = r;
    }
  }
  let ran: boolean | null = null;
  let at: number | undefined;
  let evidence = 'no record of a flush (OpenClaw leaves none in the transcript): the daily notes of the compaction’s days are counted';
  if (rec && typeof rec.flushRan === 'boolean') {
    ran = rec.flushRan;
    at = msOf(rec.flushAt);
    evidence = `${COMPACTION_RECORDS_FILE} (recorded by the Cairn plugin in OpenClaw)`;
  } else {
    const mf = msOf(input.entry?.memoryFlushAt);
    if (mf !== undefined && mf <= toMs && (input.fromMs === undefined || mf >= input.fromMs)) {
      ran = true;
      at = mf;
      evidence = 'memoryFlushAt of the session row';
    }
  }
  if (ran === false) return { ran, evidence, wrote: [], approximate: false, ...base };
  const memoryDir = path.join(input.workspace, 'memory');
  const around = at ?? toMs;
  const lo = Math.max(around - 36 * 3_600_000, input.fromMs !== undefined ? input.fromMs - 14 * 3_600_000 : -Infinity);
  const days = new Set<string>();
  for (let t = lo; t <= around + 14 * 3_600_000; t += DAY / 2) days.add(day(t));
  days.add(day(around + 14 * 3_600_000));
  const wrote: AuditFlush['wrote'] = [];
  let approximate = false;
  const counted = new Set<string>();
  const count = (file: string, rel: string) => {
    if (counted.has(rel)) return;
    counted.add(rel);
    try {
      if (fs.statSync(file).mtimeMs > toMs + 60_000) approximate = true;
    } catch {
      return;
    }
    wrote.push(...noteLines(file, rel));
  };
  for (const d of [...days].sort()) count(path.join(memoryDir, `${d}.md`), `memory/${d}.md`);
  // Any other note changed inside the window (a flush may write where it likes).
  if (input.fromMs !== undefined) {
    const others: [string, string][] = [[path.join(input.workspace, 'MEMORY.md'), 'MEMORY.md']];
    try {
      for (const f of fs.readdirSync(memoryDir)) if (f.endsWith('.md')) others.push([path.join(memoryDir, f), `memory/${f}`]);
    } catch {
      // no memory dir
    }
    for (const [file, rel] of others) {
      try {
        const m = fs.statSync(file).mtimeMs;
        if (m >= input.fromMs && m <= toMs + 60_000) count(file, rel);
      } catch {
        // gone
      }
    }
  }
  return { ran, ...(at !== undefined ? { at: new Date(at).toISOString() } : {}), evidence, wrote, approximate, ...base };
}
