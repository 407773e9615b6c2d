/**
 * Following OpenClaw's SQLite store while OpenClaw runs: the database and its -wal/-journal
 * are polled by stat (fs.watchFile, once a second; inotify would miss writes through a
 * memory-mapped -shm and does not work on every file system), and any change emits
 * `sessions.changed`. Readers re-read on their next call anyway (the store's stamp changed);
 * the event tells the UI to ask. Nothing is opened for writing; the watchers do not keep
 * the process alive and stop when the engine is disposed.
 */
import fs from 'node:fs';
import type { ContextSlot, EngineContext } from '../../core/context';
import { openclawDbFile } from './openclaw-db-file';

const POLL_MS = 1000;
/** Agents followed by this engine (a context member; each watcher is stopped by its own disposer). */
const followingSlot: ContextSlot<Set<string>> = { name: 'OpenClaw store followers', create: () => new Set() };

/** Start following the OpenClaw store of `agentId` (idempotent; a no-op without one). */
export function followOpenclawStore(ctx: EngineContext, agentId: string): void {
  const set = ctx.member(followingSlot);
  if (set.has(agentId)) return;
  const db = openclawDbFile(ctx.stateDir, agentId);
  if (!fs.existsSync(db)) return;
  set.add(agentId);
  const files = [db, `${db}-wal`, `${db}-journal`];
  const onChange = (cur: fs.Stats, prev: fs.Stats) => {
    if (cur.mtimeMs === prev.mtimeMs && cur.size === prev.size) return;
    ctx.events.emit('sessions.changed', { agentId, store: 'openclaw-sqlite', source: db });
  };
  for (const f of files) fs.watchFile(f, { persistent: false, interval: POLL_MS }, onChange);
  ctx.onDispose(() => {
    for (const f of files) fs.unwatchFile(f, onChange);
    set.delete(agentId);
  });
}
