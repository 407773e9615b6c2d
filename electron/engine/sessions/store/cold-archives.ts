/**
 * Transcript windows OpenClaw 2026.9 moved to cold storage (`session.maintenance.coldStorage`):
 * the events leave `transcript_events` for `agents/<id>/sessions/cold/<sha256>.jsonl.zst` (or an
 * `archive_blob` when `storage = 'sqlite'`), listed in `session_transcript_cold_archives`
 * (docs/reference/database-schemas, maintenance.md). Each archive line is
 * `{"kind":"event","row":{"seq","event_json"|…}}` after a `{"kind":"header"}` line. Read-only and
 * bounded like zstd rows (zstd-bounded.ts): an archive inflates at most to 3× the event bytes its
 * row declares + 64 KiB (events are JSON-escaped inside the lines: measured 1.3×), never past
 * MAX_COLD_ARCHIVE_BYTES; a file larger than that is not read.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { inflateBounded } from './zstd-bounded';

export const MAX_COLD_ARCHIVE_BYTES = 64 * 1024 * 1024;
const ARCHIVE_NAME = /^[0-9a-f]{64}\.jsonl\.zst$/u;

/** One archived event: its seq and the event row's fields, as `transcript_events` holds them. */
export interface ColdEvent {
  seq: unknown;
  event_json: string | null;
  event_zstd: Buffer | null;
  declared: unknown;
}

/** The session's cold window: its events (up to `lastSeq`), or why they cannot be read. */
export type ColdWindow = { lastSeq: number; events: ColdEvent[] } | { lastSeq: number; error: string };

interface ArchiveRow {
  archive_name: string;
  storage: string;
  raw_bytes: number;
  last_seq: number;
  blob: Buffer | null;
}

/** Whether the store has the cold-archive table (OpenClaw 2026.9+). */
function hasTable(db: Database.Database): boolean {
  return Boolean(db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_transcript_cold_archives'").get());
}

/** The sessions that have a cold window, oldest archive first, at most `limit` of them. */
export function coldSessionIds(db: Database.Database, limit: number): string[] {
  if (!hasTable(db)) return [];
  const rows = db.prepare('SELECT session_id FROM session_transcript_cold_archives ORDER BY archived_at LIMIT ?').all(limit) as { session_id: string }[];
  return rows.map((r) => r.session_id);
}

/** The cold window of `sessionId`, or undefined when it has none. `coldDir` = `agents/<id>/sessions/cold`. */
export function readColdWindow(db: Database.Database, coldDir: string, sessionId: string): ColdWindow | undefined {
  if (!hasTable(db)) return undefined;
  const r = db
    .prepare(
      `SELECT archive_name, storage, raw_bytes, last_seq,
         CASE WHEN octet_length(archive_blob) <= ? THEN archive_blob END AS blob
       FROM session_transcript_cold_archives WHERE session_id = ?`,
    )
    .get(MAX_COLD_ARCHIVE_BYTES, sessionId) as ArchiveRow | undefined;
  if (!r) return undefined;
  const lastSeq = Number.isSafeInteger(r.last_seq) ? r.last_seq : -1;
  const fail = (error: string): ColdWindow => ({ lastSeq, error: `cold archive ${r.archive_name}: ${error}` });
  if (!Number.isSafeInteger(r.raw_bytes) || r.raw_bytes < 0) return fail(`raw_bytes ${String(r.raw_bytes)} is not a byte count`);
  let packed: Buffer | null = r.blob;
  if (r.storage !== 'sqlite') {
    if (!ARCHIVE_NAME.test(r.archive_name)) return fail('the name is not <sha256>.jsonl.zst');
    const file = path.join(coldDir, r.archive_name);
    try {
      const size = fs.statSync(file).size;
      if (size > MAX_COLD_ARCHIVE_BYTES) return fail(`${size} bytes, more than the ${MAX_COLD_ARCHIVE_BYTES} Cairn reads`);
      packed = fs.readFileSync(file);
    } catch (err) {
      return fail(`cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  if (!packed) return fail(`the archive is larger than the ${MAX_COLD_ARCHIVE_BYTES} bytes Cairn reads`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflateBounded(packed, Math.min(MAX_COLD_ARCHIVE_BYTES, r.raw_bytes * 3 + 65536)));
  } catch (err) {
    return fail(`does not decompress within its bound: ${(err as Error).message}`);
  }
  const events: ColdEvent[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue; // a torn line: the rows around it still read
    }
    const o = rec as { kind?: unknown; row?: Record<string, unknown> };
    if (o?.kind !== 'event' || typeof o.row !== 'object' || o.row === null) continue;
    const row = o.row;
    const zstd = typeof row.event_zstd === 'string' ? Buffer.from(row.event_zstd, 'base64') : null;
    events.push({ seq: row.seq, event_json: typeof row.event_json === 'string' ? row.event_json : null, event_zstd: zstd, declared: row.event_utf8_bytes });
  }
  return { lastSeq, events };
}
