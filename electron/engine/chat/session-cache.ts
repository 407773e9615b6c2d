/**
 * Open session handles kept between turns, so a turn on a large transcript does not re-parse
 * the whole file (a 50 MB transcript takes ~0.5–1.4 s to parse). A handle is reused only
 * when the file's size and mtime are exactly what they were when the last turn ended;
 * anything else (a compaction from the Sessions page, another writer) reopens the file.
 * The handles are a context member bounded by bytes (lru-cache; least recently used dropped
 * first), so they go with engine.dispose() and a few huge transcripts cannot pile up.
 */
import fs from 'node:fs';
import { LRUCache } from 'lru-cache';
import type { ContextSlot, EngineContext } from '../core/context';
import { openSessionFile, type SessionFile } from '../transcript/session-file';

interface Held {
  session: SessionFile;
  size: number;
  mtimeMs: number;
}

/** Budget of held handles, in bytes of their files (a parsed transcript takes a few times that). */
export const HELD_BYTES = 256 * 1024 * 1024;

const heldSlot: ContextSlot<LRUCache<string, Held>> = {
  name: 'chat session handles',
  create: () => new LRUCache<string, Held>({ maxSize: HELD_BYTES }),
  dispose: (held) => held.clear(),
};

/** A handle for `file`: the held one when the file is unchanged since, else a fresh open. */
export function checkoutSession(ctx: EngineContext, file: string): SessionFile {
  const held = ctx.member(heldSlot);
  const h = held.get(file);
  held.delete(file);
  if (h) {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st && st.size === h.size && st.mtimeMs === h.mtimeMs) return h.session;
  }
  return openSessionFile(file, { now: () => ctx.now() });
}

/** Keep `session` for the next turn, stamped with the file's current size and mtime. */
export function checkinSession(ctx: EngineContext, file: string, session: SessionFile): void {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (!st) return;
  // A file bigger than the whole budget is not held (lru-cache stores nothing).
  ctx.member(heldSlot).set(file, { session, size: st.size, mtimeMs: st.mtimeMs }, { size: Math.max(1, st.size) });
}
