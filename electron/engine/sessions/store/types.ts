/**
 * The SessionStore seam: where a session's transcript comes from. Everything above it
 * (sessions list/show, prune preview, compaction plan, the overview chart, doctor) works on
 * the parsed `Transcript` — entries with their "line" — and does not care whether the
 * entries are lines of a JSONL file (Cairn's own layout, OpenClaw's legacy one) or rows of
 * OpenClaw 2026.9's SQLite store (SPEC §1.2, where the "line" of an event is its seq + 1, so
 * it matches the line of the same event in a JSONL export: seq 0 is the header, line 1).
 */
import type { SessionStoreKind } from '../../../../shared/types/sessions';
import type { SessionIndexEntry } from '../../transcript/sessions-index';
import type { Transcript } from '../../transcript/types';

export type { SessionStoreKind };

/** One session as a store knows it, before its transcript is read. */
export interface StoredSession {
  sessionId: string;
  /** The session key (sessions.json key, or OpenClaw's session_nodes.session_key). */
  key: string | undefined;
  /** The session's index entry (sessions.json entry, or session_nodes.entry_json). */
  entry: SessionIndexEntry | undefined;
  store: SessionStoreKind;
  /**
   * Where the transcript lives, for display and for caching: the JSONL file, or
   * `<database>#<sessionId>` for the SQLite store. Never a path to write to for SQLite.
   */
  location: string;
}

export interface SessionStore {
  readonly kind: SessionStoreKind;
  /** The file or directory the store reads (display; doctor). */
  readonly source: string;
  /** Does this store exist in the state dir at all? */
  present(): boolean;
  /** Every session of the store (may throw an Error naming the store's file). */
  list(): StoredSession[];
  /** The session `sessionId`, or undefined when this store does not hold it. */
  find(sessionId: string): StoredSession | undefined;
  /**
   * The parsed transcript, re-read only when the store changed (cheap to call per page).
   * `keep: false` reads it without keeping it in the engine's cache (a listing needs only
   * its facts: keeping every transcript would grow memory with the store).
   */
  load(session: StoredSession, opts?: { keep?: boolean }): Transcript;
  /**
   * A value that changes whenever the session's transcript may have changed (size/mtime):
   * listings cache per-session facts under it, and followers poll it.
   */
  stamp(session: StoredSession): string;
  /** Human notes about the session (e.g. a transcript version newer than Cairn knows). */
  notes(session: StoredSession): string[];
  /** How the store was last read (OpenClaw's database: in place, in memory, or from a copy and why), for doctor. */
  readInfo?(): { mode: string; reason?: string } | undefined;
  /** OpenClaw's database: its schema version and how many sessions are in cold storage, for doctor. */
  schema?(): { version: number; coldSessions: number };
  /** Release file handles / in-memory copies. */
  dispose(): void;
}
