/**
 * Session ids → their transcripts, resolved by the engine through the agent's session
 * stores (store/: JSONL files, OpenClaw's SQLite store) — never a path from the client —
 * and the parsed transcripts cached by the store (size and mtime), so paging through a
 * 50 MB session does not re-parse it for every page.
 */
import type { EngineContext } from '../core/context';
import { EngineError } from '../core/errors';
import type { SessionIndexEntry } from '../transcript/sessions-index';
import type { Transcript } from '../transcript/types';
import { sessionStores, type SessionStore, type SessionStoreKind } from './store';

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

export interface ResolvedSession {
  agentId: string;
  sessionId: string;
  /** Which store holds it; only `jsonl` sessions can be written (compaction, chat). */
  store: SessionStoreKind;
  /**
   * The JSONL transcript file; for an `openclaw-sqlite` session `<database>#<sessionId>`
   * (display only: nothing may open it for writing).
   */
  file: string;
  sessionsDir: string;
  indexFile: string;
  key: string | undefined;
  entry: SessionIndexEntry | undefined;
  /** The context window for this session: cairn.llm.contextWindow, the index's, else agents.defaults.contextTokens. */
  contextWindow: number;
  /** The parsed transcript (cached by the store; re-read when it changed on disk). */
  load(): Transcript;
}

export function contextWindowFor(ctx: EngineContext, entry: SessionIndexEntry | undefined): number {
  const cfg = ctx.config().config;
  return cfg.cairn.llm.contextWindow ?? (typeof entry?.contextTokens === 'number' && entry.contextTokens > 0 ? entry.contextTokens : cfg.agents.defaults.contextTokens);
}

/**
 * The first store that holds `sessionId`. A store that cannot be read is a warning, and its
 * error is kept: when no other store has the session, it is the answer's cause.
 */
function findIn(ctx: EngineContext, stores: SessionStore[], sessionId: string, failures: string[]) {
  for (const store of stores) {
    try {
      const s = store.find(sessionId);
      if (s) return { store, s };
    } catch (err) {
      ctx.warn((err as Error).message);
      failures.push((err as Error).message);
    }
  }
  return undefined;
}

/** Resolve `sessionId` of `agentId` to its transcript, or throw `not_found` / `bad_request`. */
export function resolveSession(ctx: EngineContext, sessionId: string, agentId?: string): ResolvedSession {
  if (!SESSION_ID.test(sessionId) || sessionId.length > 200) throw new EngineError('bad_request', `not a session id: ${JSON.stringify(sessionId)}`);
  const paths = ctx.paths(agentId);
  const stores = sessionStores(ctx, paths.agentId);
  const failures: string[] = [];
  const hit = findIn(ctx, stores, sessionId, failures);
  if (!hit && failures.length) {
    throw new EngineError('unavailable', `session ${sessionId} may be in a session store that cannot be read: ${failures.join('; ')}`);
  }
  if (!hit) {
    const where = stores.filter((s) => s.present()).map((s) => s.source);
    throw new EngineError('not_found', `no transcript for session ${sessionId} in ${where.length ? where.join(' or ') : paths.sessionsDir}`);
  }
  const { store, s } = hit;
  return {
    agentId: paths.agentId,
    sessionId,
    store: s.store,
    file: s.location,
    sessionsDir: paths.sessionsDir,
    indexFile: paths.sessionsIndex,
    key: s.key,
    entry: s.entry,
    contextWindow: contextWindowFor(ctx, s.entry),
    load: () => store.load(s),
  };
}

/**
 * Throw a clear error when `s` cannot be written by Cairn (an OpenClaw SQLite session):
 * Cairn reads OpenClaw's database but never writes into it.
 */
export function assertSessionWritable(s: ResolvedSession, what: string): void {
  if (s.store === 'openclaw-sqlite') {
    throw new EngineError(
      'read_only',
      `${what}: session ${s.sessionId} is in OpenClaw's SQLite session store (${s.file.slice(0, s.file.lastIndexOf('#'))}), which Cairn only reads; compact or continue it in OpenClaw`,
    );
  }
}

/**
 * For callers that write a session by id (chat, `/compact`): refuse, with the reason, a
 * session that lives in a store Cairn only reads. An unknown id is left to the caller's
 * own `not_found`.
 */
export function refuseReadOnlyStore(ctx: EngineContext, sessionId: string, agentId: string | undefined, what: string): void {
  let s: ResolvedSession;
  try {
    s = resolveSession(ctx, sessionId, agentId);
  } catch {
    return;
  }
  assertSessionWritable(s, what);
}
