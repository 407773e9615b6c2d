/**
 * `sessions.list`: every session of an agent, from every session store (JSONL files and
 * OpenClaw's SQLite store, store/), with its size in messages and tokens and which store
 * holds it.
 */
import type { SessionSummary, SessionsListResult, UnreadableStore } from '../../../shared/types/sessions';
import { LRUCache } from 'lru-cache';
import type { ContextSlot, EngineContext } from '../core/context';
import { buildContext } from '../transcript/context';
import { estimateTokens } from '../transcript/tokens';
import type { Transcript } from '../transcript/types';
import { loadSoftly } from './load-soft';
import { contextWindowFor } from './resolve';
import { sessionStores, type SessionStore, type StoredSession } from './store';
import { recordedContextTokens, systemPromptFacts } from './system-prompt';

/** What a listing needs from one transcript, cached by the store's stamp (a listing must not hold every parsed transcript). */
interface Facts {
  stamp: string;
  bytes: number;
  entries: number;
  messages: number;
  compactions: number;
  estimatedTokens: number;
  lastTimestamp: string | undefined;
  malformed: number;
  name: string | undefined;
  version: number | undefined;
}
/**
 * Facts by session location: a context member bounded by bytes (a rough per-entry size: the
 * numbers plus the strings), so a huge sessions dir cannot grow it without end.
 */
const factsSlot: ContextSlot<LRUCache<string, Facts>> = {
  name: 'session list facts',
  create: () =>
    new LRUCache<string, Facts>({
      maxSize: 8 * 1024 * 1024,
      sizeCalculation: (f, location) => 128 + 2 * (location.length + f.stamp.length + (f.name?.length ?? 0) + (f.lastTimestamp?.length ?? 0)),
    }),
  dispose: (c) => c.clear(),
};

function factsOf(t: Transcript, stamp: string): Facts {
  let messages = 0;
  let compactions = 0;
  let name: string | undefined;
  for (const e of t.entries) {
    if (e.type === 'message') messages++;
    else if (e.type === 'compaction') compactions++;
    else if (e.type === 'session_info' && typeof e.name === 'string') name = e.name;
  }
  return {
    stamp,
    bytes: t.bytes,
    entries: t.entries.length,
    messages,
    compactions,
    estimatedTokens: estimateTokens(buildContext(t).messages),
    lastTimestamp: t.entries.at(-1)?.timestamp,
    malformed: t.malformed.length,
    name,
    version: t.header?.version,
  };
}

async function facts(ctx: EngineContext, store: SessionStore, s: StoredSession): Promise<Facts> {
  const factsCache = ctx.member(factsSlot);
  const stamp = store.stamp(s);
  const hit = factsCache.get(s.location);
  if (hit && hit.stamp === stamp) return hit;
  // A big file is parsed in slices (load-soft.ts): the engine keeps answering meanwhile.
  // An OpenClaw database's transcripts are not kept by a listing (their facts are): memory
  // stays that of one session, whatever the size of the store.
  const keep = s.store !== 'openclaw-sqlite';
  const f = factsOf(await loadSoftly(ctx, { store: s.store, file: s.location, load: () => store.load(s, { keep }) }), stamp);
  factsCache.set(s.location, f);
  return f;
}

/** Summaries of every session of `agentId`, newest activity first. */
export async function listSessions(ctx: EngineContext, agentId?: string): Promise<SessionsListResult> {
  const paths = ctx.paths(agentId);
  const sessions: SessionSummary[] = [];
  const unreadable: UnreadableStore[] = [];
  const seen = new Set<string>();
  const fail = (store: SessionStore, source: string, err: unknown) => {
    const error = (err as Error).message.replace(`${source}: `, '');
    unreadable.push({ store: store.kind, source, error });
    ctx.warn(`sessions in ${source} cannot be read: ${error}`);
  };
  for (const store of sessionStores(ctx, paths.agentId)) {
    let stored: StoredSession[];
    try {
      stored = store.list();
    } catch (err) {
      fail(store, store.source, err);
      continue;
    }
    for (const s of stored) {
      // The same id in two stores: the first store's (JSONL, Cairn's writable copy) wins.
      if (seen.has(s.sessionId)) continue;
      let f: Facts;
      let notes: string[];
      try {
        f = await facts(ctx, store, s);
        notes = store.notes(s);
      } catch (err) {
        fail(store, s.location, err);
        continue;
      }
      seen.add(s.sessionId);
      // Shown in Status too, not only beside the session.
      for (const n of notes) ctx.warn(`session ${s.sessionId} (${s.location}): ${n}`);
      const updated = typeof s.entry?.updatedAt === 'number' ? new Date(s.entry.updatedAt).toISOString() : undefined;
      sessions.push({
        id: s.sessionId,
        store: s.store,
        ...(notes.length ? { notes } : {}),
        key: s.key,
        file: s.location,
        bytes: f.bytes,
        entries: f.entries,
        messages: f.messages,
        estimatedTokens: f.estimatedTokens,
        systemPromptTokens: systemPromptFacts(s.entry)?.tokens,
        recordedTokens: recordedContextTokens(s.entry),
        compactions: f.compactions,
        lastActivity: f.lastTimestamp ?? updated,
        contextWindow: contextWindowFor(ctx, s.entry),
        malformed: f.malformed,
        name: f.name,
      });
    }
  }
  sessions.sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? ''));
  return { agentId: paths.agentId, sessionsDir: paths.sessionsDir, sessions, unreadable };
}
