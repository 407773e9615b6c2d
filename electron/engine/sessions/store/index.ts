/**
 * The session stores of an agent, in the order sessions are looked up: Cairn's own JSONL
 * layout first (a session id in both is the JSONL one: Cairn's copy is the one it can
 * write), then OpenClaw 2026.9's SQLite store (read-only).
 */
import path from 'node:path';
import type { EngineContext } from '../../core/context';
import { jsonlStore } from './jsonl';
import { storeCaches } from './cache';
import { openclawSqliteStore } from './openclaw-sqlite';
import type { SessionStore } from './types';

export type { SessionStore, StoredSession, SessionStoreKind } from './types';

/**
 * Where snapshot copies of a busy OpenClaw database go: Cairn's own dir for this state dir
 * (`<cairn dir>/openclaw-snapshots/<agentId>`, next to the index), never OpenClaw's.
 */
export function snapshotDirFor(ctx: EngineContext, agentId: string): string {
  const cairnDir = path.dirname(path.dirname(ctx.paths(agentId).indexFile));
  return path.join(cairnDir, 'openclaw-snapshots', agentId);
}

/** Every store of `agentId` (default agent when omitted), sharing the engine's caches (closed with it). */
export function sessionStores(ctx: EngineContext, agentId?: string): SessionStore[] {
  const paths = ctx.paths(agentId);
  const caches = storeCaches(ctx);
  return [
    jsonlStore(paths, (m) => ctx.warn(m), caches),
    openclawSqliteStore(ctx.stateDir, paths.agentId, snapshotDirFor(ctx, paths.agentId), caches),
  ];
}
