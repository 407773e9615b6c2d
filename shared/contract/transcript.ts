/**
 * `transcript.changed`: Cairn itself changed a session transcript — a chat turn appended to
 * it, or a compaction rewrote it. The engine's root (electron/engine/assemble.ts) wires what
 * reacts (the memory index marks the session dirty when the sessions source is on; QMD
 * re-exports transcripts when it indexes sessions); clients may reload the session.
 */
import { ev } from './define';

export interface TranscriptChangedEvent {
  agentId: string;
  sessionId: string;
  /** The transcript as the index names it: `sessions/<file>.jsonl`. */
  path: string;
  /** What changed it. */
  reason: 'turn' | 'compaction';
}

export const transcriptEvents = {
  'transcript.changed': ev<TranscriptChangedEvent>(),
};
