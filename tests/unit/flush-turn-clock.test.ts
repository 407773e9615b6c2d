/**
 * The memory flush turn keeps to the clock it is given: the tool results it sends the model
 * carry the injected time, not the system's (before, `Date.now()` stamped them beside the
 * injected `now`, so a pinned clock still leaked the real time into the turn).
 */
import { describe, expect, it } from 'vitest';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { runFlushTurn } from '../../electron/engine/compaction/flush-turn';
import { ScriptedLlm } from '../helpers/scripted-llm';
import { tmpDir, writeTree } from '../helpers/tmp';

const NOW = new Date('2025-03-02T23:30:00Z');

describe('flush turn clock', () => {
  it('stamps the tool results it sends the model with the injected clock', async () => {
    const ws = writeTree(tmpDir(), { 'memory/2025-03-02.md': '- Deploy is Friday.\n' });
    const later = new Date('2025-03-02T23:31:00Z');
    const llm = ScriptedLlm.steps(
      () => ({ toolCalls: [{ id: 't1', name: 'read', arguments: { path: 'memory/2025-03-02.md' } }] }),
      () => ({ text: 'NO_REPLY' }),
    );
    const r = await runFlushTurn({ llm, messages: [], settings: CompactionSchema.parse({}).memoryFlush, workspace: ws, timeZone: 'UTC', now: NOW, clock: () => later });
    expect(r.rounds).toBe(2);
    const sent = llm.requests[1]?.messages.at(-1);
    expect(sent).toMatchObject({ role: 'toolResult', toolCallId: 't1', timestamp: later.getTime() });
    // Without a clock, the turn's own `now`.
    const llm2 = ScriptedLlm.steps(
      () => ({ toolCalls: [{ id: 't1', name: 'read', arguments: { path: 'memory/2025-03-02.md' } }] }),
      () => ({ text: 'NO_REPLY' }),
    );
    await runFlushTurn({ llm: llm2, messages: [], settings: CompactionSchema.parse({}).memoryFlush, workspace: ws, timeZone: 'UTC', now: NOW });
    expect(llm2.requests[1]?.messages.at(-1)).toMatchObject({ role: 'toolResult', timestamp: NOW.getTime() });
  });
});
