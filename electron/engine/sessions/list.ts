/** `sessions.list`: every transcript of an agent with its size in messages and tokens. */
import fs from 'node:fs';
import path from 'node:path';
import type { SessionSummary, SessionsListResult } from '../../../shared/types/sessions';
import type { EngineContext } from '../context';
import { buildContext } from '../transcript/context';
import { estimateTokens } from '../transcript/tokens';
import { readSessionIndex, sessionEntries, type SessionIndexEntry } from '../transcript/sessions-index';
import { readTranscript } from '../transcript/read';
import { contextWindowFor, isTranscriptName } from './resolve';

/** What a listing needs from one transcript, cached by size and mtime (a listing must not hold every parsed file). */
interface FileFacts {
  size: number;
  mtimeMs: number;
  bytes: number;
  entries: number;
  messages: number;
  compactions: number;
  estimatedTokens: number;
  lastTimestamp: string | undefined;
  malformed: number;
  name: string | undefined;
}
const factsCache = new Map<string, FileFacts>();

function facts(file: string): FileFacts {
  const st = fs.statSync(file);
  const hit = factsCache.get(file);
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit;
  const t = readTranscript(file);
  let messages = 0;
  let compactions = 0;
  let name: string | undefined;
  for (const e of t.entries) {
    if (e.type === 'message') messages++;
    else if (e.type === 'compaction') compactions++;
    else if (e.type === 'session_info' && typeof e.name === 'string') name = e.name;
  }
  const f: FileFacts = {
    size: st.size,
    mtimeMs: st.mtimeMs,
    bytes: t.bytes,
    entries: t.entries.length,
    messages,
    compactions,
    estimatedTokens: estimateTokens(buildContext(t).messages),
    lastTimestamp: t.entries.at(-1)?.timestamp,
    malformed: t.malformed.length,
    name,
  };
  factsCache.set(file, f);
  return f;
}

/** Summaries of every session of `agentId`, newest activity first. */
export function listSessions(ctx: EngineContext, agentId?: string): SessionsListResult {
  const paths = ctx.paths(agentId);
  let byId = new Map<string, { key: string; entry: SessionIndexEntry }>();
  try {
    byId = new Map(sessionEntries(readSessionIndex(paths.sessionsIndex)).map((e) => [e.entry.sessionId, e]));
  } catch (err) {
    ctx.warn((err as Error).message);
  }
  let names: string[] = [];
  try {
    names = fs.readdirSync(paths.sessionsDir).filter(isTranscriptName);
  } catch {
    // no sessions dir yet
  }
  const sessions: SessionSummary[] = [];
  for (const name of names) {
    const file = path.join(paths.sessionsDir, name);
    const id = name.slice(0, -'.jsonl'.length);
    const idx = byId.get(id);
    let f: FileFacts;
    try {
      f = facts(file);
    } catch (err) {
      ctx.warn(`${file}: ${(err as Error).message}`);
      continue;
    }
    const updated = typeof idx?.entry.updatedAt === 'number' ? new Date(idx.entry.updatedAt).toISOString() : undefined;
    sessions.push({
      id,
      key: idx?.key,
      file,
      bytes: f.bytes,
      entries: f.entries,
      messages: f.messages,
      estimatedTokens: f.estimatedTokens,
      compactions: f.compactions,
      lastActivity: f.lastTimestamp ?? updated,
      contextWindow: contextWindowFor(ctx, idx?.entry),
      malformed: f.malformed,
      name: f.name,
    });
  }
  sessions.sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? ''));
  return { agentId: paths.agentId, sessionsDir: paths.sessionsDir, sessions };
}
