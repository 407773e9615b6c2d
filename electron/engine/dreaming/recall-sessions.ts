/**
 * Which sessions searched memory with which query: the memory_search calls in the transcripts
 * of OpenClaw's agent store (`agents/<id>/agent/openclaw-agent.sqlite`, read-only). Dreaming's
 * recall log names the query and what it returned but not the session; the transcript names
 * the session and the query, so together they say which conversation surfaced a candidate.
 * The model reaches the tool directly (`memory_search`) or behind OpenClaw's compact tool
 * surface (`tool_call` with `id: "memory_search"`); both are read. Sessions moved to cold
 * storage (`sessions/cold/<sha256>.jsonl.zst`, listed in `session_transcript_cold_archives`)
 * are read through the sessions store's one cold-archive reader (cold-archives.ts, bounded as
 * zstd rows are). Bounded: only uncompressed events that mention memory_search, at most
 * MAX_EVENTS of them; at most MAX_ARCHIVES archives.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openForeignSqlite } from '../sessions/store/sqlite-readonly';
import { openclawDbFile } from '../sessions/store/openclaw-db-file';
import { coldSessionIds, readColdWindow } from '../sessions/store/cold-archives';

export const MAX_EVENTS = 5000;
const MAX_EVENT_BYTES = 256 * 1024;
export const MAX_ARCHIVES = 500;

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

/** The memory_search calls of the sessions in cold storage, read by the sessions store's cold-archive reader. */
function coldCalls(db: Database.Database, stateDir: string, agentId: string): SearchCall[] {
  const coldDir = path.join(stateDir, 'agents', agentId, 'sessions', 'cold');
  const out: SearchCall[] = [];
  for (const sessionId of coldSessionIds(db, MAX_ARCHIVES)) {
    const w = readColdWindow(db, coldDir, sessionId);
    if (!w || 'error' in w) continue; // an unreadable archive: its searches cannot be linked
    for (const e of w.events) if (e.event_json?.includes('memory_search')) out.push(...callsIn(sessionId, e.event_json));
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
