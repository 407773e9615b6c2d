/**
 * Chat sessions on disk: create a new transcript (header only) registered in sessions.json,
 * or find an existing one by id (sessions.json's `sessionFile`, else `<sessionId>.jsonl`).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createTranscriptFile } from '../transcript/append';
import { findSessionEntry, readSessionIndex, updateSessionEntry } from '../transcript/sessions-index';
import type { AgentPaths } from '../config/state-dir';
import { EngineError } from '../core/errors';

/** A session id and its transcript file. */
export interface ChatSessionRef {
  sessionId: string;
  file: string;
}

/** Create a session: `<sessionsDir>/<uuid>.jsonl` with its header, plus its sessions.json entry. */
export async function createChatSession(paths: AgentPaths, now: Date): Promise<ChatSessionRef> {
  const sessionId = crypto.randomUUID();
  const file = path.join(paths.sessionsDir, `${sessionId}.jsonl`);
  createTranscriptFile(file, { id: sessionId, timestamp: now.toISOString(), cwd: paths.workspace });
  await updateSessionEntry(paths.sessionsIndex, sessionId, { sessionFile: file, updatedAt: now.getTime(), compactionCount: 0, totalTokens: 0 }, { sessionFile: file });
  return { sessionId, file };
}

/** The transcript of `sessionId`; not_found when neither sessions.json nor the directory has it. */
export function findChatSession(paths: AgentPaths, sessionId: string): ChatSessionRef {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(sessionId)) throw new EngineError('bad_request', `invalid session id ${JSON.stringify(sessionId)}`);
  const entry = findSessionEntry(readSessionIndex(paths.sessionsIndex), sessionId)?.entry;
  const candidates = [
    ...(entry?.sessionFile ? [path.resolve(paths.sessionsDir, entry.sessionFile)] : []),
    path.join(paths.sessionsDir, `${sessionId}.jsonl`),
  ];
  const file = candidates.find((f) => fs.existsSync(f));
  if (!file) throw new EngineError('not_found', `no session ${sessionId} in ${paths.sessionsDir}`);
  return { sessionId, file };
}
