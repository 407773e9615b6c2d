/**
 * Session ids → transcript files, resolved by the engine inside the agent's sessions dir
 * (never a path from the client), and the parsed transcripts cached by file size and mtime so
 * paging through a 50 MB session does not re-parse it for every page.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EngineContext } from '../context';
import { EngineError } from '../rpc/dispatcher';
import { readTranscript } from '../transcript/read';
import { findSessionEntry, readSessionIndex, type SessionIndexEntry } from '../transcript/sessions-index';
import type { Transcript } from '../transcript/types';

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

export interface ResolvedSession {
  agentId: string;
  sessionId: string;
  file: string;
  sessionsDir: string;
  indexFile: string;
  key: string | undefined;
  entry: SessionIndexEntry | undefined;
  /** The context window for this session: cairn.llm.contextWindow, the index's, else agents.defaults.contextTokens. */
  contextWindow: number;
}

/** Is `name` a transcript file name (not a checkpoint, temp or other file)? */
export function isTranscriptName(name: string): boolean {
  return name.endsWith('.jsonl') && !name.includes('.checkpoint.') && !name.startsWith('.') && SESSION_ID.test(name.slice(0, -6));
}

export function contextWindowFor(ctx: EngineContext, entry: SessionIndexEntry | undefined): number {
  const cfg = ctx.config().config;
  return cfg.cairn.llm.contextWindow ?? (typeof entry?.contextTokens === 'number' && entry.contextTokens > 0 ? entry.contextTokens : cfg.agents.defaults.contextTokens);
}

/** Resolve `sessionId` of `agentId` to its transcript, or throw `not_found` / `bad_request`. */
export function resolveSession(ctx: EngineContext, sessionId: string, agentId?: string): ResolvedSession {
  if (!SESSION_ID.test(sessionId) || sessionId.length > 200) throw new EngineError('bad_request', `not a session id: ${JSON.stringify(sessionId)}`);
  const paths = ctx.paths(agentId);
  let index;
  try {
    index = readSessionIndex(paths.sessionsIndex);
  } catch (err) {
    ctx.warn((err as Error).message);
    index = {};
  }
  const found = findSessionEntry(index, sessionId);
  const candidates = [path.join(paths.sessionsDir, `${sessionId}.jsonl`)];
  // OpenClaw may record the file name; only its base name is used, inside the sessions dir.
  if (found?.entry.sessionFile) candidates.push(path.join(paths.sessionsDir, path.basename(found.entry.sessionFile)));
  const file = candidates.find((f) => isTranscriptName(path.basename(f)) && fs.existsSync(f));
  if (!file) throw new EngineError('not_found', `no transcript for session ${sessionId} in ${paths.sessionsDir}`);
  return {
    agentId: paths.agentId,
    sessionId,
    file,
    sessionsDir: paths.sessionsDir,
    indexFile: paths.sessionsIndex,
    key: found?.key,
    entry: found?.entry,
    contextWindow: contextWindowFor(ctx, found?.entry),
  };
}

interface CacheSlot {
  size: number;
  mtimeMs: number;
  transcript: Transcript;
}
/** Parsed transcripts kept for paging/preview/plan (a 50 MB one holds a few hundred MB). */
const MAX_CACHED = 2;
const cache = new Map<string, CacheSlot>();

/** The parsed transcript of `file`, re-read only when its size or mtime changed. */
export function loadTranscriptCached(file: string): Transcript {
  const st = fs.statSync(file);
  const hit = cache.get(file);
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
    cache.delete(file);
    cache.set(file, hit); // most recently used last
    return hit.transcript;
  }
  const transcript = readTranscript(file);
  cache.set(file, { size: st.size, mtimeMs: st.mtimeMs, transcript });
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return transcript;
}
