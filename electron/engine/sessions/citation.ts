/**
 * Opening a session-search citation (`sessions/<id>.jsonl#L5-L45`, SPEC §7's `path#Ls-Le`)
 * — a hit in a past session names JSONL line numbers, and `cairn get` must show
 * those lines as the index saw them (`User: …`, `Assistant: …`, `Summary: …`, secrets
 * redacted; session-text.ts), not refuse the path because it is not a memory file. The
 * file name only names the session: it is resolved through the session stores (resolve.ts),
 * so the cited session is read the same way from a JSONL file or OpenClaw's SQLite store
 * (line = seq + 1 there), and `..` or other names are refused.
 */
import type { EngineContext } from '../core/context';
import { renderTranscript } from '../index/session-text';
import { EngineError } from '../core/errors';
import { resolveSession } from './resolve';
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

/** Lines `from`..`to` (JSONL line numbers, inclusive) of the session `sessions/<id>.jsonl` of `agentId`. */
export function sessionCitation(ctx: EngineContext, agentId: string | undefined, input: string, from = 1, to?: number): SessionCitation {
  const rel = input.replace(/\\/g, '/');
  const name = rel.slice('sessions/'.length);
  if (name.includes('/') || !isTranscriptName(name)) {
    throw new EngineError('bad_request', `${JSON.stringify(input)}: not a session transcript (expected sessions/<id>.jsonl, as search results cite it)`);
  }
  if (to !== undefined && to < from) throw new EngineError('bad_request', `${JSON.stringify(input)}: the range ends (L${to}) before it starts (L${from})`);
  const t = resolveSession(ctx, name.slice(0, -'.jsonl'.length), agentId).load();
  const { lines } = renderTranscript(t);
  const picked = lines.filter((l) => l.lineNo >= from && (to === undefined || l.lineNo <= to));
  return { path: `sessions/${name}`, from, to, text: picked.map((l) => `L${l.lineNo} ${l.text}`).join('\n') };
}
