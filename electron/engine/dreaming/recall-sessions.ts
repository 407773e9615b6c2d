/**
 * Which sessions searched memory with which query: the memory_search calls in the transcripts
 * of OpenClaw's agent store (`agents/<id>/agent/openclaw-agent.sqlite`, read-only). Dreaming's
 * recall log names the query and what it returned but not the session; the transcript names
 * the session and the query, so together they say which conversation surfaced a candidate.
 * The model reaches the tool directly (`memory_search`) or behind OpenClaw's compact tool
 * surface (`tool_call` with `id: "memory_search"`); both are read. Sessions moved to cold
 * storage (`sessions/cold/<sha256>.jsonl.zst`, listed in `session_transcript_cold_archives`)
 * are read from their archive, decompressed within the size the row declares. Bounded: only
 * uncompressed events that mention memory_search, at most MAX_EVENTS of them; at most
 * MAX_ARCHIVES archives of at most MAX_ARCHIVE_BYTES each once decompressed.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openForeignSqlite } from '../sessions/store/sqlite-readonly';
import { openclawDbFile } from '../sessions/store/openclaw-sqlite';
import { inflateBounded } from '../sessions/store/zstd-bounded';

export const MAX_EVENTS = 5000;
const MAX_EVENT_BYTES = 256 * 1024;
export const MAX_ARCHIVES = 500;
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
const ARCHIVE_NAME = /^[0-9a-f]{64}\.jsonl\.zst$/u;

/** One memory_search call found in a transcript. */
export interface SearchCall {
  sessionId: string;
  query: string;
  at?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The query of a toolCall block when it is a memory_search call (direct or through tool_call). */
function queryOf(block: Record<string, unknown>): string | undefined {
  if (block.type !== 'toolCall') return undefined;
  const args = isRecord(block.arguments) ? block.arguments : undefined;
  if (block.name === 'memory_search') return typeof args?.query === 'string' ? args.query : undefined;
  if (block.name === 'tool_call' && args && (args.id === 'memory_search' || String(args.id).endsWith(':memory_search'))) {
    const inner = isRecord(args.args) ? args.args : undefined;
    return typeof inner?.query === 'string' ? inner.query : undefined;
  }
  return undefined;
}

/** The memory_search calls in one event's JSON text (none when it is not an assistant message). */
function callsIn(sessionId: string, json: string): SearchCall[] {
  let ev: unknown;
  try {
    ev = JSON.parse(json);
  } catch {
    return [];
  }
  const msg = isRecord(ev) && isRecord(ev.message) ? ev.message : undefined;
  if (!msg || msg.role !== 'assistant' || !Array.isArray(msg.content)) return [];
  const at = isRecord(ev) && typeof ev.timestamp === 'string' ? ev.timestamp : undefined;
  return msg.content.flatMap((b: unknown) => {
    const q = isRecord(b) ? queryOf(b) : undefined;
    return q ? [{ sessionId, query: q, ...(at ? { at } : {}) }] : [];
  });
}

interface ArchiveRow {
  session_id: string;
  archive_name: string;
  storage: string;
  raw_bytes: number;
  blob: Uint8Array | null;
}

/** The memory_search calls of the sessions in cold storage (`{kind:"event", row:{event_json}}` lines). */
function coldCalls(db: Database.Database, stateDir: string, agentId: string): SearchCall[] {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_transcript_cold_archives'").get();
  if (!has) return [];
  const rows = db
    .prepare(
      `SELECT session_id, archive_name, storage, raw_bytes,
         CASE WHEN octet_length(archive_blob) <= ? THEN archive_blob END AS blob
       FROM session_transcript_cold_archives ORDER BY archived_at LIMIT ?`,
    )
    .all(MAX_ARCHIVE_BYTES, MAX_ARCHIVES) as ArchiveRow[];
  const out: SearchCall[] = [];
  for (const r of rows) {
    if (!Number.isInteger(r.raw_bytes) || r.raw_bytes <= 0) continue;
    let packed: Uint8Array | null = r.blob;
    if (!packed && ARCHIVE_NAME.test(r.archive_name)) {
      const file = path.join(stateDir, 'agents', agentId, 'sessions', 'cold', r.archive_name);
      try {
        if (fs.statSync(file).size <= MAX_ARCHIVE_BYTES) packed = fs.readFileSync(file);
      } catch {
        packed = null; // the archive is missing: its searches cannot be linked
      }
    }
    if (!packed) continue;
    let text: string;
    try {
      // raw_bytes counts the events' own bytes; the archive's lines carry them JSON-escaped
      // inside `{"kind":"event","row":{…}}` (measured 1.3× on OpenClaw's archives): 3× + 64 KiB.
      text = new TextDecoder('utf-8', { fatal: true }).decode(inflateBounded(packed, Math.min(MAX_ARCHIVE_BYTES, r.raw_bytes * 3 + 65536)));
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (!line.includes('memory_search')) continue;
      try {
        const rec: unknown = JSON.parse(line);
        const row = isRecord(rec) && isRecord(rec.row) ? rec.row : undefined;
        if (typeof row?.event_json === 'string') out.push(...callsIn(r.session_id, row.event_json));
      } catch {
        // a torn line: skipped
      }
    }
  }
  return out;
}

/** Every memory_search call in `agentId`'s OpenClaw store, oldest first; empty when there is no store. */
export function readSearchCalls(stateDir: string, agentId: string, snapshotDir: string): SearchCall[] {
  const file = openclawDbFile(stateDir, agentId);
  if (!fs.existsSync(file)) return [];
  const out: SearchCall[] = [];
  try {
    const h = openForeignSqlite(file, snapshotDir);
    try {
      const has = h.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'transcript_events'").get();
      if (!has) return [];
      const rows = h.db
        .prepare(
          `SELECT session_id, event_json FROM transcript_events
           WHERE event_json IS NOT NULL AND octet_length(event_json) <= ? AND event_json LIKE '%memory_search%'
           ORDER BY rowid LIMIT ?`,
        )
        .all(MAX_EVENT_BYTES, MAX_EVENTS) as { session_id: string; event_json: string }[];
      for (const r of rows) out.push(...callsIn(r.session_id, r.event_json));
      out.push(...coldCalls(h.db, stateDir, agentId));
    } finally {
      h.db.close();
    }
  } catch {
    return out; // the sessions view reports an unreadable store; here the link is just missing
  }
  return out;
}
