/**
 * After Cairn changed a transcript (a chat turn appended to it, or a compaction rewrote it):
 * say so on the event bus as `transcript.changed`. What reacts (the memory index, QMD's
 * export) is wired where the engine is assembled (electron/engine/assemble.ts), not called
 * from here: the sessions layer does not know who listens, and a listener's failure is the
 * listener's to report — it never fails the turn or the compaction that emitted the event.
 */
import path from 'node:path';
import type { EngineContext } from '../core/context';

/** Emit `transcript.changed` for the transcript `file` of `agentId`. */
export function afterTranscriptChange(ctx: EngineContext, agentId: string, file: string, reason: 'turn' | 'compaction'): void {
  const name = path.basename(file);
  ctx.events.emit('transcript.changed', { agentId, sessionId: name.replace(/\.jsonl$/, ''), path: `sessions/${name}`, reason });
}
