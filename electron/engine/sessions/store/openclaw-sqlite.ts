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
import type { SessionIndexEntry } from '../../transcript/sessions-index';
import { fileStamp, openForeignSqlite, type ReadOnlyDb, type ReadOnlyOpenMode } from './sqlite-readonly';
import { headerVersion, readTranscriptRows } from './openclaw-events';
import type { StoreCaches } from './cache';
import type { SessionStore, StoredSession } from './types';
import { EngineError } from '../../core/errors';
import { openclawDbFile } from './openclaw-db-file';

/** The newest transcript version whose entries Cairn knows (OpenClaw 2026.9 writes 4). */
export const KNOWN_TRANSCRIPT_VERSION = 4;

/**
 * The agent database's `PRAGMA user_version` of OpenClaw 2026.9.6, the newest Cairn was tested
 * on (its docs/reference/database-schemas/versioning.md: forward-only migrations; a newer
 * version may move sessions to tables Cairn does not read).
 */
export const KNOWN_SCHEMA_VERSION = 23;

/** What `cairn doctor` says about the store's schema and cold storage. */
export interface StoreSchemaInfo {
  version: number;
  /** Sessions whose older window is in cold storage. */
  coldSessions: number;
}

function schemaInfo(db: ReadOnlyDb['db']): StoreSchemaInfo {
  const version = Number(db.pragma('user_version', { simple: true }));
  const hasCold = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_transcript_cold_archives'").get();
  const coldSessions = hasCold ? Number((db.prepare('SELECT count(*) AS n FROM session_transcript_cold_archives').get() as { n: number }).n) : 0;
  return { version, coldSessions };
}

/** The note for a schema newer than Cairn knows, or undefined. */
export function newerSchemaNote(version: number): string | undefined {
  return version > KNOWN_SCHEMA_VERSION
    ? `OpenClaw's session store has schema version ${version}, newer than the ${KNOWN_SCHEMA_VERSION} Cairn knows (OpenClaw 2026.9.6): sessions or messages kept in tables Cairn does not read are missing here`
    : undefined;
}

/** How the store was last read, for doctor. */
export interface StoreReadInfo {
  mode: ReadOnlyOpenMode;
  reason?: string;
}

/** A fresh handle on `file`, checked to hold OpenClaw 2026.9's two tables. */
function openChecked(file: string, snapshotDir: string): ReadOnlyDb {
  const fresh = openForeignSqlite(file, snapshotDir);
  for (const t of ['session_nodes', 'transcript_events']) {
    const has = fresh.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(t);
    if (!has) {
      fresh.db.close();
      throw new EngineError('unavailable', `${file}: no "${t}" table — not an OpenClaw 2026.9 session store`);
    }
  }
  return fresh;
}

/** How long a live WAL connection stays open after its last use (one listing's reads share it). */
const LIVE_IDLE_MS = 250;
const idleTimers = new WeakMap<ReadOnlyDb, NodeJS.Timeout>();

/** Is a kept handle still good for a read now? */
function stillValid(h: ReadOnlyDb, file: string): boolean {
  // Read in place, SQLite itself sees every commit; the handle is good while OpenClaw's
  // -wal and -shm are there (gone: OpenClaw exited, and the file is to be read another way).
  if (h.mode === 'wal-in-place') return fs.existsSync(`${file}-wal`) && fs.existsSync(`${file}-shm`);
  return h.stamp === fileStamp(file);
}

/**
 * Run `fn` on a handle on `file`: the engine's kept one (caches.handles) while it is still
 * valid, else a fresh one. A live WAL connection is closed once idle for LIVE_IDLE_MS: one
 * held open would keep OpenClaw from removing its -wal/-shm when it exits, and opening one
 * per read would parse OpenClaw's large schema each time.
 */
function withHandle<T>(file: string, snapshotDir: string, handles: Map<string, ReadOnlyDb>, seen: (h: ReadOnlyDb) => void, fn: (h: ReadOnlyDb) => T): T {
  let h = handles.get(file);
  if (!h || !stillValid(h, file)) {
    if (h) closeHandle(h, file, handles);
    h = openChecked(file, snapshotDir);
    handles.set(file, h);
  }
  seen(h);
  if (h.transient) {
    clearTimeout(idleTimers.get(h));
    const kept = h;
    idleTimers.set(kept, setTimeout(() => closeHandle(kept, file, handles), LIVE_IDLE_MS).unref());
  }
  return fn(h);
}

function closeHandle(h: ReadOnlyDb, file: string, handles: Map<string, ReadOnlyDb>): void {
  clearTimeout(idleTimers.get(h));
  if (handles.get(file) === h) handles.delete(file);
  if (h.db.open) h.db.close();
}

/**
 * What changes when a session's events may have changed — its event count, last seq, the
 * node's updated_at and its rewrite generation — read from the primary-key index and two
 * small rows: a write to one session leaves the others' cached facts valid.
 */
function sessionStamp(db: ReadOnlyDb['db'], sessionId: string): string {
  const hasWatermarks = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'transcript_rewrite_watermarks'").get() !== undefined;
  const r = db
    .prepare(
      `SELECT (SELECT count(*) FROM transcript_events WHERE session_id = :id) AS n, (SELECT max(seq) FROM transcript_events WHERE session_id = :id) AS m,
        (SELECT max(updated_at) FROM session_nodes WHERE current_session_id = :id) AS u` +
        (hasWatermarks ? ', (SELECT generation FROM transcript_rewrite_watermarks WHERE session_id = :id) AS g' : ", NULL AS g"),
    )
    .get({ id: sessionId }) as { n: number; m: unknown; u: unknown; g: unknown };
  return `${r.n}:${String(r.m)}:${String(r.u)}:${String(r.g)}`;
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
 * used only when SQLite cannot read the database in place (see sqlite-readonly.ts).
 */
export function openclawSqliteStore(
  stateDir: string,
  agentId: string,
  snapshotDir: string,
  caches: StoreCaches,
): SessionStore & { readInfo(): StoreReadInfo | undefined; schema(): StoreSchemaInfo } {
  const file = openclawDbFile(stateDir, agentId);
  const { handles } = caches;
  let last: StoreReadInfo | undefined;
  const seen = (h: ReadOnlyDb) => (last = { mode: h.mode, ...(h.reason ? { reason: h.reason } : {}) });
  const use = <T>(fn: (h: ReadOnlyDb) => T): T => withHandle(file, snapshotDir, handles, seen, fn);
  const rows = (): StoredSession[] =>
    use(({ db }) => {
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
    });
  // A directory or any other file in the database's place is there (and is reported), not absent.
  const present = () => fs.existsSync(file);
  return {
    kind: 'openclaw-sqlite',
    source: file,
    present,
    list: () => (present() ? rows() : []),
    find: (sessionId) => (present() ? rows().find((s) => s.sessionId === sessionId) : undefined),
    load(s, opts) {
      return use((h) =>
        h.db.transaction(() => {
          // Stamp and rows in one read transaction: the rows are those the stamp names.
          const stamp = sessionStamp(h.db, s.sessionId);
          const hit = caches.transcript(s.location, stamp);
          if (hit) return hit;
          const transcript = readTranscriptRows(h.db, file, s.sessionId, path.join(stateDir, 'agents', agentId, 'sessions', 'cold'));
          if (opts?.keep !== false) caches.keep(s.location, stamp, transcript, Math.max(0, transcript.bytes));
          return transcript;
        })(),
      );
    },
    stamp: (s) => use((h) => sessionStamp(h.db, s.sessionId)),
    notes(s) {
      // The header row alone: a listing must not read every session's events again for it.
      const v = use((h) => headerVersion(h.db, s.sessionId));
      const schema = newerSchemaNote(use((h) => schemaInfo(h.db)).version);
      return [
        ...(schema ? [schema] : []),
        ...(typeof v === 'number' && v > KNOWN_TRANSCRIPT_VERSION
          ? [`transcript version ${v} is newer than the ${KNOWN_TRANSCRIPT_VERSION} Cairn knows: entries it understands are shown, others are listed as they are`]
          : []),
      ];
    },
    schema: () => use((h) => schemaInfo(h.db)),
    readInfo: () => last,
    dispose() {
      const h = handles.get(file);
      if (h) closeHandle(h, file, handles);
    },
  };
}
