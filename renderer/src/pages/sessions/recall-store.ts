/**
 * What Cairn recalled for each user turn of the open session: the recall log read through
 * `openclaw.recall`, matched to the turns (recall-match.ts). Kept apart from the sessions
 * store so the timeline's rows subscribe to their own turn only.
 */
import { create } from 'zustand';
import type { SessionRecallLog } from '../../../../shared/contract/openclaw-recall';
import { api } from '../../api';
import { messageOf, textOf, type RawEntry } from './entry-types';
import { hashInputs, injectedSections, matchRecalls, type TurnRecall, type UserTurn } from './recall-match';

export interface RecallState {
  /** The session the rest is for. */
  sessionId: string | undefined;
  log: SessionRecallLog | undefined;
  byEntry: Map<string, TurnRecall>;
  unmatched: SessionRecallLog['records'];
  /** User turns whose transcript text carries a `<relevant-memories>` section. */
  inTranscript: Map<string, string[]>;
  userTurns: number;
  error: string | undefined;
}

export const useRecall = create<RecallState>(() => ({
  sessionId: undefined,
  log: undefined,
  byEntry: new Map(),
  unmatched: [],
  inTranscript: new Map(),
  userTurns: 0,
  error: undefined,
}));

/** sha256 hex of a text, or undefined where the page has no WebCrypto (a plain-http remote page). */
async function sha256(text: string): Promise<string | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function userTurns(entries: (RawEntry | undefined)[]): Promise<UserTurn[]> {
  const out: UserTurn[] = [];
  for (const e of entries) {
    const m = e && messageOf(e);
    if (!e || !m || m.role !== 'user') continue;
    const text = textOf(m.content);
    const hashes = (await Promise.all(hashInputs(text).map(sha256))).filter((h): h is string => h !== undefined);
    const at = e.timestamp ? Date.parse(e.timestamp) : typeof m.timestamp === 'number' ? m.timestamp : NaN;
    out.push({ entryId: e.id, text, at: Number.isFinite(at) ? at : undefined, hashes });
  }
  return out;
}

let seq = 0;

/** Read the log of `sessionId` and match it to `entries` (the session's loaded entries). */
export async function loadRecall(sessionId: string, entries: (RawEntry | undefined)[], signal: AbortSignal): Promise<void> {
  const mine = ++seq;
  if (useRecall.getState().sessionId !== sessionId) {
    useRecall.setState({ sessionId, log: undefined, byEntry: new Map(), unmatched: [], inTranscript: new Map(), userTurns: 0, error: undefined });
  }
  try {
    const [log, turns] = await Promise.all([api['openclaw.recall']({ sessionId }, { signal }), userTurns(entries)]);
    if (mine !== seq || signal.aborted) return;
    const { byEntry, unmatched } = matchRecalls(turns, log.records);
    const inTranscript = new Map<string, string[]>();
    for (const t of turns) {
      const s = injectedSections(t.text);
      if (s.length) inTranscript.set(t.entryId, s);
    }
    useRecall.setState({ sessionId, log, byEntry, unmatched, inTranscript, userTurns: turns.length, error: undefined });
  } catch (err) {
    // An engine without the channel (an older `cairn serve`) has nothing to show: no error banner.
    if (mine !== seq || signal.aborted) return;
    const code = (err as { code?: string }).code;
    useRecall.setState({ sessionId, error: code === 'unavailable' || code === 'not_found' ? undefined : (err as Error).message });
  }
}
