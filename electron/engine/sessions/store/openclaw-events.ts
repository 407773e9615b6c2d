/**
 * Reading one session's `transcript_events` rows of OpenClaw's SQLite store into a
 * `Transcript`, with hostile rows costing bounded memory and time: a zstd event inflates at
 * most to its declared `event_utf8_bytes` (and never past a hard cap), an oversized
 * `event_json` is refused by its length before SQLite hands its text over, and a gap in
 * `seq` costs nothing (each event keeps its own line number, seq + 1; no blank lines are
 * made up to fill the gap). Rows that cannot be decoded are reported as malformed lines.
 * A session whose older window is in cold storage reads that window from its archive first
 * (cold-archives.ts), then the rows after it.
 */
import type Database from 'better-sqlite3';
import { parseNumberedLines } from '../../transcript/parse';
import type { Transcript } from '../../transcript/types';
import { inflateBounded } from './zstd-bounded';
import { readColdWindow } from './cold-archives';

/**
 * Largest event Cairn decodes, in bytes of UTF-8 JSON. OpenClaw 2026.9's own CHECK allows
 * 4 MiB per compressed event; the cap leaves room for a later version, and bounds a row
 * written around that CHECK.
 */
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;

interface EventRow {
  seq: unknown;
  event_json: string | null;
  json_bytes: number | null;
  event_zstd: Buffer | null;
  zstd_bytes: number | null;
  declared: unknown;
}

// octet_length() reads a value's size from the record header: an oversized value is never loaded.
const EVENTS_SQL = `SELECT seq,
  CASE WHEN octet_length(event_json) <= :cap THEN event_json END AS event_json, octet_length(event_json) AS json_bytes,
  CASE WHEN octet_length(event_zstd) <= :cap THEN event_zstd END AS event_zstd, octet_length(event_zstd) AS zstd_bytes,
  event_utf8_bytes AS declared
  FROM transcript_events WHERE session_id = :id ORDER BY seq`;

/** The budget of one zstd event: its declared size when sane, never more than the cap. */
function budgetOf(declared: unknown): { limit: number } | { error: string } {
  if (declared === null || declared === undefined) return { limit: MAX_EVENT_BYTES };
  if (typeof declared !== 'number' || !Number.isInteger(declared) || declared < 0) return { error: `event_utf8_bytes ${String(declared)} is not a byte count` };
  if (declared > MAX_EVENT_BYTES) return { error: `event_utf8_bytes declares ${declared} bytes, more than the ${MAX_EVENT_BYTES} Cairn reads in one event` };
  return { limit: declared };
}

/** Decode one event row to its JSON text, or say why it cannot be. */
export function eventText(r: EventRow): { text: string } | { error: string } {
  if (r.json_bytes !== null) {
    if (r.event_json === null) return { error: `event_json is ${r.json_bytes} bytes, more than the ${MAX_EVENT_BYTES} Cairn reads in one event` };
    return { text: r.event_json };
  }
  if (r.zstd_bytes !== null) {
    if (r.event_zstd === null) return { error: `event_zstd is ${r.zstd_bytes} bytes, more than the ${MAX_EVENT_BYTES} Cairn reads in one event` };
    const budget = budgetOf(r.declared);
    if ('error' in budget) return budget;
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(inflateBounded(r.event_zstd, budget.limit)) };
    } catch (err) {
      return { error: `event_zstd does not decompress within its declared ${budget.limit} bytes: ${(err as Error).message}` };
    }
  }
  return { error: 'neither event_json nor event_zstd is set' };
}

/** The transcript version in the header event (seq 0) of `sessionId`, read alone (not the whole session). */
export function headerVersion(db: Database.Database, sessionId: string): number | undefined {
  const sql = EVENTS_SQL.replace('ORDER BY seq', 'AND seq = 0');
  const r = db.prepare(sql).get({ cap: MAX_EVENT_BYTES, id: sessionId }) as EventRow | undefined;
  if (!r) return undefined;
  const t = eventText(r);
  if ('error' in t) return undefined;
  try {
    const v = (JSON.parse(t.text) as { type?: unknown; version?: unknown }) ?? {};
    return v.type === 'session' && typeof v.version === 'number' ? v.version : undefined;
  } catch {
    return undefined;
  }
}

/** The archived window's events as rows (before the live ones), or its error; none without a cold window. */
function coldRows(db: Database.Database, coldDir: string | undefined, sessionId: string): { rows: EventRow[]; lastSeq: number; error?: string } {
  const w = coldDir ? readColdWindow(db, coldDir, sessionId) : undefined;
  if (!w) return { rows: [], lastSeq: -1 };
  if ('error' in w) return { rows: [], lastSeq: w.lastSeq, error: w.error };
  const rows = w.events
    .filter((e) => typeof e.seq !== 'number' || e.seq <= w.lastSeq)
    .map((e) => ({
      seq: e.seq,
      event_json: e.event_json,
      json_bytes: e.event_json === null ? null : Buffer.byteLength(e.event_json, 'utf8'),
      event_zstd: e.event_zstd,
      zstd_bytes: e.event_zstd === null ? null : e.event_zstd.length,
      declared: e.declared,
    }));
  return { rows, lastSeq: w.lastSeq };
}

/**
 * The transcript of `sessionId` from the rows of `db` (`file` names it in messages); with
 * `coldDir` (`agents/<id>/sessions/cold`), the window OpenClaw archived comes first.
 */
export function readTranscriptRows(db: Database.Database, file: string, sessionId: string, coldDir?: string): Transcript {
  const location = `${file}#${sessionId}`;
  const texts: string[] = [];
  const lineNumbers: number[] = [];
  const undecodable: { line: number; error: string }[] = [];
  let bytes = 0;
  let lastLine = 0;
  const cold = coldRows(db, coldDir, sessionId);
  if (cold.error) undecodable.push({ line: 1, error: cold.error });
  const live = db.prepare(EVENTS_SQL).iterate({ cap: MAX_EVENT_BYTES, id: sessionId }) as IterableIterator<EventRow>;
  for (const r of (function* () {
    yield* cold.rows;
    // A row still live for a seq the archive holds too (OpenClaw restored the window): the archive's stands.
    for (const row of live) if (typeof row.seq !== 'number' || row.seq > cold.lastSeq) yield row;
  })()) {
    const seq = r.seq;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0 || seq + 1 <= lastLine) {
      undecodable.push({ line: lastLine + 1, error: `seq ${String(seq)} is not a non-negative integer after seq ${lastLine - 1}` });
      continue;
    }
    const line = seq + 1;
    lastLine = line;
    const t = eventText(r);
    if ('error' in t) {
      undecodable.push({ line, error: t.error });
      continue;
    }
    // One event is one line; a newline inside would shift every later line number.
    texts.push(t.text.replace(/\n/g, '\\n'));
    lineNumbers.push(line);
    bytes += Buffer.byteLength(t.text, 'utf8') + 1;
  }
  const transcript = parseNumberedLines(location, texts, lineNumbers, bytes);
  for (const u of undecodable) transcript.malformed.push({ file: location, line: u.line, error: u.error, preview: '' });
  transcript.malformed.sort((a, b) => a.line - b.line);
  return transcript;
}
