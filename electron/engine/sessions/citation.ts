/**
 * Opening a session-search citation (`sessions/<id>.jsonl#L5-L45`, SPEC §7's `path#Ls-Le`)
 * — issue 12.7: a hit in a past session names JSONL line numbers, and `cairn get` must show
 * those lines as the index saw them (`User: …`, `Assistant: …`, `Summary: …`, secrets
 * redacted; session-text.ts), not refuse the path because it is not a memory file. Only a
 * transcript file directly in the agent's sessions dir is read; `..`, other names and
 * symlinks are refused, as memory_get refuses them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { renderSession } from '../index/session-text';
import { EngineError } from '../rpc/dispatcher';
import { isTranscriptName } from './store/jsonl';

/** The rendered lines of a cited session range. */
export interface SessionCitation {
  /** `sessions/<file>.jsonl`. */
  path: string;
  from: number;
  to: number | undefined;
  /** One line per rendered JSONL line in the range: `L<n> <Role>: <text>`. */
  text: string;
}

/** True when `p` names the sessions source (`sessions/…`), as search results cite it. */
export function isSessionCitationPath(p: string): boolean {
  return p.replace(/\\/g, '/').startsWith('sessions/');
}

/** Lines `from`..`to` (JSONL line numbers, inclusive) of `sessions/<file>.jsonl` in `sessionsDir`. */
export function sessionCitation(sessionsDir: string, input: string, from = 1, to?: number): SessionCitation {
  const rel = input.replace(/\\/g, '/');
  const name = rel.slice('sessions/'.length);
  if (name.includes('/') || !isTranscriptName(name)) {
    throw new EngineError('bad_request', `${JSON.stringify(input)}: not a session transcript (expected sessions/<id>.jsonl, as search results cite it)`);
  }
  const file = path.join(sessionsDir, name);
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) throw new EngineError('not_found', `${JSON.stringify(input)}: no such transcript in ${sessionsDir}`);
  if (!st.isFile()) throw new EngineError('bad_request', `${JSON.stringify(input)}: not a regular file (symlinks are not followed)`);
  if (to !== undefined && to < from) throw new EngineError('bad_request', `${JSON.stringify(input)}: the range ends (L${to}) before it starts (L${from})`);
  const { lines } = renderSession(fs.readFileSync(file, 'utf8'));
  const picked = lines.filter((l) => l.lineNo >= from && (to === undefined || l.lineNo <= to));
  return { path: `sessions/${name}`, from, to, text: picked.map((l) => `L${l.lineNo} ${l.text}`).join('\n') };
}
