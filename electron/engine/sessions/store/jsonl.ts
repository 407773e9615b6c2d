/**
 * The JSONL session store: `agents/<id>/sessions/sessions.json` + `<sessionId>.jsonl`
 * (SPEC §1.1; Cairn's own layout and OpenClaw's legacy one). Transcripts are parsed through
 * transcript/read.ts and cached (store caches, per engine) by file size and mtime.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AgentPaths } from '../../config/state-dir';
import { findSessionEntry, readSessionIndex, sessionEntries, type SessionIndex } from '../../transcript/sessions-index';
import { readTranscript } from '../../transcript/read';
import type { Transcript } from '../../transcript/types';
import type { StoreCaches } from './cache';
import type { SessionStore, StoredSession } from './types';

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** Is `name` a transcript file name (not a checkpoint, temp or other file)? */
export function isTranscriptName(name: string): boolean {
  return name.endsWith('.jsonl') && !name.includes('.checkpoint.') && !name.startsWith('.') && SESSION_ID.test(name.slice(0, -6));
}

/** The parsed transcript of `file`, re-read only when its size or mtime changed. */
function loadTranscriptCached(file: string, caches: StoreCaches, keep: boolean): Transcript {
  const st = fs.statSync(file);
  const stamp = `${st.size}:${st.mtimeMs}`;
  const hit = caches.transcript(file, stamp);
  if (hit) return hit;
  const transcript = readTranscript(file);
  if (keep) caches.keep(file, stamp, transcript, st.size);
  return transcript;
}

/**
 * The JSONL store of one agent. `onIndexError` receives a broken sessions.json's message
 * (the sessions are still listed from the directory); parsed transcripts are kept in the
 * engine's `caches`.
 */
export function jsonlStore(paths: AgentPaths, onIndexError: (message: string) => void, caches: StoreCaches): SessionStore {
  const index = (): SessionIndex => {
    try {
      return readSessionIndex(paths.sessionsIndex);
    } catch (err) {
      onIndexError((err as Error).message);
      return {};
    }
  };
  const stored = (sessionId: string, file: string, idx: SessionIndex): StoredSession => {
    const found = findSessionEntry(idx, sessionId);
    return { sessionId, key: found?.key, entry: found?.entry, store: 'jsonl', location: file };
  };
  return {
    kind: 'jsonl',
    source: paths.sessionsDir,
    present: () => fs.existsSync(paths.sessionsDir),
    list() {
      let names: string[] = [];
      try {
        names = fs.readdirSync(paths.sessionsDir).filter(isTranscriptName);
      } catch {
        return []; // no sessions dir yet
      }
      const idx = index();
      const byId = new Map(sessionEntries(idx).map((e) => [e.entry.sessionId, e]));
      return names.map((name) => {
        const sessionId = name.slice(0, -'.jsonl'.length);
        const e = byId.get(sessionId);
        return { sessionId, key: e?.key, entry: e?.entry, store: 'jsonl' as const, location: path.join(paths.sessionsDir, name) };
      });
    },
    find(sessionId) {
      const idx = index();
      const found = findSessionEntry(idx, sessionId);
      const candidates = [path.join(paths.sessionsDir, `${sessionId}.jsonl`)];
      // OpenClaw may record the file name; only its base name is used, inside the sessions dir.
      if (found?.entry.sessionFile) candidates.push(path.join(paths.sessionsDir, path.basename(found.entry.sessionFile)));
      const file = candidates.find((f) => isTranscriptName(path.basename(f)) && fs.existsSync(f));
      return file ? stored(sessionId, file, idx) : undefined;
    },
    load: (s, opts) => loadTranscriptCached(s.location, caches, opts?.keep !== false),
    stamp(s) {
      const st = fs.statSync(s.location);
      return `${st.size}:${st.mtimeMs}`;
    },
    notes: () => [],
    dispose() {},
  };
}
