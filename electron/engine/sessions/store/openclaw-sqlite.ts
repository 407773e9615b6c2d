/**
 * OpenClaw 2026.9's SQLite session store, read-only (SPEC §1.2):
 * `agents/<agentId>/agent/openclaw-agent.sqlite`, `session_nodes` (one row per session key,
 * `entry_json` = the old sessions.json entry) and `transcript_events` (`session_id`, `seq`,
 * the entry as `event_json` or zstd `event_zstd`). Events become a `Transcript` whose lines
 * are seq + 1 (seq 0 is the `{"type":"session","version":4}` header, so lines match a JSONL
 * export). Nothing is ever written to the database or beside it (sqlite-readonly.ts); a
 * change of the file (OpenClaw appending) is seen at the next call, by its size and mtime.
 */
import path from 'node:path';
import fs from 'node:fs';
import { decompress } from 'fzstd';
import type Database from 'better-sqlite3';
import { parseTranscript } from '../../transcript/parse';
import type { SessionIndexEntry } from '../../transcript/sessions-index';
import type { Transcript } from '../../transcript/types';
import { fileStamp, openForeignSqlite, type ReadOnlyDb } from './sqlite-readonly';
import type { StoreCaches } from './cache';
import type { SessionStore, StoredSession } from './types';
import { EngineError } from '../../core/errors';

/** The newest transcript version whose entries Cairn knows (OpenClaw 2026.9 writes 4). */
export const KNOWN_TRANSCRIPT_VERSION = 4;

/** The store's file for an agent dir (`agents/<agentId>`). */
export function openclawDbFile(stateDir: string, agentId: string): string {
  return path.join(stateDir, 'agents', agentId, 'agent', 'openclaw-agent.sqlite');
}

/** The engine's open handle on `file` (caches.handles), reopened when the file changes. */
function handle(file: string, snapshotDir: string, handles: Map<string, ReadOnlyDb>): ReadOnlyDb {
  const open = handles.get(file);
  if (open && open.stamp === fileStamp(file)) return open;
  open?.db.close();
  handles.delete(file);
  const fresh = openForeignSqlite(file, snapshotDir);
  for (const t of ['session_nodes', 'transcript_events']) {
    const has = fresh.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t);
    if (!has) {
      fresh.db.close();
      throw new EngineError('unavailable', `${file}: no "${t}" table — not an OpenClaw 2026.9 session store`);
    }
  }
  handles.set(file, fresh);
  return fresh;
}


interface EventRow {
  seq: number;
  event_json: string | null;
  event_zstd: Buffer | null;
}

/** Decode one event row to its JSON text, or say why it cannot be. */
function eventText(r: EventRow): { text: string } | { error: string } {
  if (typeof r.event_json === 'string') return { text: r.event_json };
  if (r.event_zstd) {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(decompress(r.event_zstd)) };
    } catch (err) {
      return { error: `event_zstd does not decompress: ${(err as Error).message}` };
    }
  }
  return { error: 'neither event_json nor event_zstd is set' };
}

function readTranscriptRows(db: Database.Database, file: string, sessionId: string): Transcript {
  const rows = db.prepare('SELECT seq, event_json, event_zstd FROM transcript_events WHERE session_id = ? ORDER BY seq').all(sessionId) as EventRow[];
  const location = `${file}#${sessionId}`;
  const lines: string[] = [];
  const undecodable: { line: number; error: string }[] = [];
  let bytes = 0;
  for (const r of rows) {
    if (!Number.isInteger(r.seq) || r.seq < 0 || r.seq > 10_000_000) {
      undecodable.push({ line: lines.length + 1, error: `seq ${String(r.seq)} is not a small non-negative integer` });
      continue;
    }
    while (lines.length < r.seq) lines.push(''); // a gap in seq: blank lines carry nothing
    const t = eventText(r);
    if ('error' in t) {
      undecodable.push({ line: r.seq + 1, error: t.error });
      lines.push('');
      continue;
    }
    // One event is one line; a newline inside would shift every later line number.
    lines[r.seq] = t.text.replace(/\n/g, '\\n');
    bytes += Buffer.byteLength(t.text, 'utf8') + 1;
  }
  const transcript = parseTranscript(location, lines.length ? `${lines.join('\n')}\n` : '', bytes);
  for (const u of undecodable) transcript.malformed.push({ file: location, line: u.line, error: u.error, preview: '' });
  transcript.malformed.sort((a, b) => a.line - b.line);
  return transcript;
}

function parseEntry(json: string): SessionIndexEntry | undefined {
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) && typeof (v as SessionIndexEntry).sessionId === 'string' ? (v as SessionIndexEntry) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The OpenClaw SQLite store of one agent. `snapshotDir` is in Cairn's own data dir: it is
 * used only while OpenClaw holds a -wal/-journal open (see sqlite-readonly.ts).
 */
export function openclawSqliteStore(stateDir: string, agentId: string, snapshotDir: string, caches: StoreCaches): SessionStore {
  const file = openclawDbFile(stateDir, agentId);
  const { handles } = caches;
  const rows = (): StoredSession[] => {
    const { db } = handle(file, snapshotDir, handles);
    const nodes = db.prepare('SELECT session_key, current_session_id, entry_json FROM session_nodes ORDER BY session_key').all() as {
      session_key: string;
      current_session_id: string;
      entry_json: string;
    }[];
    return nodes.map((n) => ({
      sessionId: n.current_session_id,
      key: n.session_key,
      entry: parseEntry(n.entry_json),
      store: 'openclaw-sqlite' as const,
      location: `${file}#${n.current_session_id}`,
    }));
  };
  return {
    kind: 'openclaw-sqlite',
    source: file,
    present: () => fs.existsSync(file),
    list: () => (fs.existsSync(file) ? rows() : []),
    find: (sessionId) => (fs.existsSync(file) ? rows().find((s) => s.sessionId === sessionId) : undefined),
    load(s) {
      const h = handle(file, snapshotDir, handles);
      const hit = caches.transcript(s.location, h.stamp);
      if (hit) return hit;
      const transcript = readTranscriptRows(h.db, file, s.sessionId);
      caches.keep(s.location, h.stamp, transcript, Math.max(0, transcript.bytes));
      return transcript;
    },
    stamp: () => fileStamp(file),
    notes(s) {
      const v = this.load(s).header?.version;
      return typeof v === 'number' && v > KNOWN_TRANSCRIPT_VERSION
        ? [`transcript version ${v} is newer than the ${KNOWN_TRANSCRIPT_VERSION} Cairn knows: entries it understands are shown, others are listed as they are`]
        : [];
    },
    dispose() {
      handles.get(file)?.db.close();
      handles.delete(file);
    },
  };
}
