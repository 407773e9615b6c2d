/**
 * Open session handles kept between turns, so a turn on a large transcript does not re-parse
 * the whole file (a 50 MB transcript takes ~0.5–1.4 s to parse). A handle is reused only
 * when the file's size and mtime are exactly what they were when the last turn ended;
 * anything else (a compaction from the Sessions page, another writer) reopens the file.
 */
import fs from 'node:fs';
import { openSessionFile, type SessionFile } from '../transcript/session-file';

interface Held {
  session: SessionFile;
  size: number;
  mtimeMs: number;
}

/** Handles kept at most (least recently used dropped first): each holds a parsed transcript. */
export const MAX_HELD = 4;
const held = new Map<string, Held>();

/** A handle for `file`: the held one when the file is unchanged since, else a fresh open. */
export function checkoutSession(file: string, now: () => Date): SessionFile {
  const h = held.get(file);
  held.delete(file);
  if (h) {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st && st.size === h.size && st.mtimeMs === h.mtimeMs) return h.session;
  }
  return openSessionFile(file, { now });
}

/** Keep `session` for the next turn, stamped with the file's current size and mtime. */
export function checkinSession(file: string, session: SessionFile): void {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) return;
  held.set(file, { session, size: st.size, mtimeMs: st.mtimeMs });
  while (held.size > MAX_HELD) held.delete(held.keys().next().value as string);
}
