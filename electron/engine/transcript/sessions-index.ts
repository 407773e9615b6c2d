/**
 * `sessions.json`: the session index that maps a session key to its entry (SPEC §1.1).
 * OpenClaw keeps many more fields per entry; reads keep them all and updates change only
 * the fields asked for. Every write is atomic (temp file, fsync, rename) and is a
 * read-modify-write under the file's cross-process lock, so two Cairn processes updating
 * different sessions at once never lose each other's keys.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../util/atomic-write';
import { withFileLock } from '../util/file-lock';
import { jsonDepthExceeds, MAX_ENTRY_DEPTH } from '../util/json-depth';
import { removeStaleTemps } from '../util/stale-temps';
import { EngineError } from '../core/errors';

export interface SessionIndexEntry {
  sessionId: string;
  sessionFile?: string;
  /** Epoch milliseconds (OpenClaw's unit). */
  updatedAt?: number;
  totalTokens?: number;
  compactionCount?: number;
  memoryFlushAt?: number;
  memoryFlushCompactionCount?: number;
  /** OpenClaw's per-session context window, when it recorded one. */
  contextTokens?: number;
  [extra: string]: unknown;
}

export type SessionIndex = Record<string, SessionIndexEntry>;

/** Read the index; a missing file is an empty index, a broken one is an error naming the file. */
export function readSessionIndex(file: string): SessionIndex {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new EngineError('unavailable', `${file}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EngineError('unavailable', `${file}: expected a JSON object of sessions`);
  // Values that are not session entries are kept as they are (and written back unchanged);
  // readers go through findSessionEntry/sessionEntries, which skip them.
  return value as SessionIndex;
}

/** Every well-formed entry of the index with its key. */
export function sessionEntries(index: SessionIndex): { key: string; entry: SessionIndexEntry }[] {
  const out: { key: string; entry: SessionIndexEntry }[] = [];
  for (const [key, entry] of Object.entries(index)) {
    if (entry && typeof entry === 'object' && typeof entry.sessionId === 'string') out.push({ key, entry });
  }
  return out;
}

/** The key and entry of `sessionId`, if the index has one. */
export function findSessionEntry(index: SessionIndex, sessionId: string): { key: string; entry: SessionIndexEntry } | undefined {
  return sessionEntries(index).find((e) => e.entry.sessionId === sessionId);
}

export type SessionPatch = Partial<Omit<SessionIndexEntry, 'sessionId'>>;

/**
 * Update the entry of `sessionId` (created under `key`, default `sessionId`, when missing)
 * with `patch` — or with what `patch(entry)` returns — and write the index atomically.
 * The file is read again under the lock, so `patch(entry)` sees the latest entry.
 * Resolves to the updated entry; waits for the lock without blocking the thread.
 */
export async function updateSessionEntry(
  file: string,
  sessionId: string,
  patch: SessionPatch | ((entry: SessionIndexEntry) => SessionPatch),
  opts: { key?: string; sessionFile?: string } = {},
): Promise<SessionIndexEntry> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withFileLock(file, () => {
    // Temps of a writer killed mid-write (its pid gone) would otherwise pile up beside it.
    removeStaleTemps(file);
    const index = readSessionIndex(file);
    // Writing it back re-serialises every value; a hostile depth would overflow the stack there.
    if (jsonDepthExceeds(index, MAX_ENTRY_DEPTH)) throw new EngineError('unavailable', `${file}: values nested deeper than ${MAX_ENTRY_DEPTH} levels; not updated (fix or remove the deep value)`);
    const found = findSessionEntry(index, sessionId);
    const key = found?.key ?? opts.key ?? sessionId;
    const current: SessionIndexEntry = found?.entry ?? { sessionId, ...(opts.sessionFile ? { sessionFile: opts.sessionFile } : {}) };
    const next: SessionIndexEntry = { ...current, ...(typeof patch === 'function' ? patch(current) : patch), sessionId };
    index[key] = next;
    writeFileAtomicSync(file, `${JSON.stringify(index, null, 2)}\n`);
    return next;
  });
}
