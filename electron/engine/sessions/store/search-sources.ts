/**
 * The sessions of OpenClaw's SQLite store as sources of the sessions search (SPEC §6): each
 * becomes `sessions/<id>.jsonl`, the path a JSONL export of it would have, so its results
 * cite lines (seq + 1) that `cairn get sessions/<id>.jsonl#L…` opens through the session
 * stores (citation.ts), as for JSONL sessions. A session with a JSONL file of the same id is
 * left to that file (the JSONL copy is the one Cairn lists). The engine's root
 * (electron/engine/assemble.ts) hands this to the context: the index sits below the sessions
 * layer and must not import it.
 */
import crypto from 'node:crypto';
import type { EngineContext } from '../../core/context';
import type { SourceFile } from '../../core/session-sources';
import { sessionStores } from '.';

/** The SQLite-store sessions of `agentId` as index sources (none when the store is absent or unreadable). */
export function storeSessionSources(ctx: EngineContext, agentId: string): SourceFile[] {
  const store = sessionStores(ctx, agentId).find((s) => s.kind === 'openclaw-sqlite');
  if (!store?.present()) return [];
  let sessions;
  try {
    sessions = store.list();
  } catch {
    return []; // reported by sessions list and doctor; the index keeps what it had
  }
  return sessions.map((s) => ({
    abs: s.location,
    path: `sessions/${s.sessionId}.jsonl`,
    source: 'sessions' as const,
    virtual: {
      stat: () => {
        // The session's stamp (event count, last seq, updated_at, rewrite generation) as the
        // "size" the sync compares; updated_at (ms) as its "mtime" (the date of undated chunks).
        const stamp = store.stamp(s);
        const updated = typeof s.entry?.updatedAt === 'number' ? s.entry.updatedAt : 0;
        return { mtimeMs: Math.round(updated), size: Number.parseInt(crypto.createHash('sha256').update(stamp).digest('hex').slice(0, 12), 16) };
      },
      read: () => {
        const t = store.load(s, { keep: false });
        return { text: t.rawLines.join('\n'), lineNumbers: t.lineNumbers ?? t.rawLines.map((_, i) => i + 1) };
      },
    },
  }));
}
