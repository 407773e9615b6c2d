/** `sessions.list`: every transcript of an agent with its size in messages and tokens. */
import fs from 'node:fs';
import path from 'node:path';
import type { SessionSummary, SessionsListResult } from '../../../shared/types/sessions';
import type { EngineContext } from '../context';
import { buildContext } from '../transcript/context';
import { estimateTokens } from '../transcript/tokens';
import { readSessionIndex, sessionEntries, type SessionIndexEntry } from '../transcript/sessions-index';
import { contextWindowFor, isTranscriptName, loadTranscriptCached } from './resolve';

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
    let t;
    try {
      t = loadTranscriptCached(file);
    } catch (err) {
      ctx.warn(`${file}: ${(err as Error).message}`);
      continue;
    }
    let messages = 0;
    let compactions = 0;
    let name_: string | undefined;
    for (const e of t.entries) {
      if (e.type === 'message') messages++;
      else if (e.type === 'compaction') compactions++;
      else if (e.type === 'session_info' && typeof e.name === 'string') name_ = e.name;
    }
    const last = t.entries.at(-1)?.timestamp;
    const updated = typeof idx?.entry.updatedAt === 'number' ? new Date(idx.entry.updatedAt).toISOString() : undefined;
    sessions.push({
      id,
      key: idx?.key,
      file,
      bytes: t.bytes,
      entries: t.entries.length,
      messages,
      estimatedTokens: estimateTokens(buildContext(t).messages),
      compactions,
      lastActivity: last ?? updated,
      contextWindow: contextWindowFor(ctx, idx?.entry),
      malformed: t.malformed.length,
      name: name_,
    });
  }
  sessions.sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? ''));
  return { agentId: paths.agentId, sessionsDir: paths.sessionsDir, sessions };
}
