/**
 * One rule for what a compaction keeps: on a small window, the Sessions page's dry run
 * (`compact.plan`) predicts exactly the tail a chat turn's compaction keeps, and "Compact now"
 * (`compact.run`) keeps that same tail. Before, chat capped the kept tail at 25 % of the
 * window and the dry run / compact.run at `maxHistoryShare` (50 %).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { readTranscript } from '../../electron/engine/transcript/read';
import type { CompactionEntry } from '../../electron/engine/transcript/types';
import { ScriptedLlm, isSummaryRequest } from '../helpers/scripted-llm';
import { tmpDir, writeTree } from '../helpers/tmp';

const WINDOW = 16_000;
const NOW = new Date('2026-11-30T10:00:00Z');
const SUMMARY = '## Decisions\n(none)\n## Open TODOs\n(none)\n## Constraints/Rules\n(none)\n## Pending user asks\n(none)\n## Exact identifiers\n(none)';

/** An engine whose model has a 16k window, the config saying the same, and no memory flush. */
function smallWindowEngine() {
  const dir = tmpDir();
  const llm = new ScriptedLlm((req) => (isSummaryRequest(req) ? { text: SUMMARY } : { text: 'Noted.' }), WINDOW);
  const engine = createEngine({ stateDir: dir, deps: { now: () => NOW, createLlm: () => llm, createEmbedder: async () => null, env: {} } });
  writeTree(path.join(dir, 'workspace'), { 'MEMORY.md': '# Memory\n' });
  fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify({ agents: { defaults: { contextTokens: WINDOW, compaction: { memoryFlush: { enabled: false } } } } }));
  engine.ctx.reloadConfig();
  return { engine, api: createDirectClient(engine) };
}

/** ~540 tokens of a user message that names its turn. */
const note = (i: number) => `Turn ${i}: ${'the staging cluster moved to the new rack and the backups run nightly. '.repeat(30)}`;
const TURNS = 16;

/**
 * A session of TURNS chat turns, ~8.7k tokens: under the pre-send threshold ((history +
 * system) × 1.2 ≤ 16k − a 4k reserve), over half the window (so the old 50 % rule would have
 * cut too, elsewhere). Returns its id.
 */
async function seed(api: ReturnType<typeof smallWindowEngine>['api']): Promise<string> {
  const { sessionId } = await api['chat.send']({ text: note(0) });
  for (let i = 1; i < TURNS; i++) await api['chat.send']({ sessionId, text: note(i) });
  return sessionId;
}

describe('the kept tail: one rule for chat, the dry run and compact.run', () => {
  it('on a 16k window, compact.plan keeps exactly what the chat turn\'s compaction keeps (a quarter of the window)', async () => {
    const { engine, api } = smallWindowEngine();
    try {
      const sessionId = await seed(api);
      const file = path.join(engine.ctx.paths('main').sessionsDir, `${sessionId}.jsonl`);
      expect(readTranscript(file).entries.some((e) => e.type === 'compaction')).toBe(false);
      const plan = await api['compact.plan']({ sessionId });
      expect(plan.contextWindow).toBe(WINDOW);
      expect(plan.tokensBefore).toBeGreaterThan(WINDOW / 2);
      expect(plan.possible).toBe(true);

      // The chat's own compaction of the same transcript (`/compact` runs the turn loop's step).
      const sent = await api['chat.send']({ sessionId, text: '/compact' });
      expect(sent.compactions).toBe(1);
      const entry = readTranscript(file).entries.at(-1) as CompactionEntry | undefined;
      expect(entry?.type).toBe('compaction');
      expect(entry?.firstKeptEntryId).toBe(plan.firstKeptEntryId);
      // The rule: keepRecentTokens (20,000) capped at a quarter of the small window.
      expect(plan.keepBudget).toBe(WINDOW / 4);
      expect(plan.keptTokens).toBeLessThanOrEqual(plan.keepBudget + 1_000); // the cut lands on a message boundary
    } finally {
      await engine.dispose();
    }
  });

  it('compact.run ("Compact now") keeps what the dry run said', async () => {
    const { engine, api } = smallWindowEngine();
    try {
      const sessionId = await seed(api);
      const plan = await api['compact.plan']({ sessionId });
      const run = await api['compact.run']({ sessionId });
      expect(run.compacted).toBe(true);
      expect(run.firstKeptEntryId).toBe(plan.firstKeptEntryId);
    } finally {
      await engine.dispose();
    }
  });
});
