import { describe, expect, it } from 'vitest';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { planCompaction } from '../../electron/engine/compaction/plan';
import { keepBudget } from '../../electron/engine/compaction/thresholds';
import { findCutPoint } from '../../electron/engine/compaction/cut-point';
import { compactionRegion } from '../../electron/engine/compaction/region';
import { summarySystemPrompt, summaryUserPrompt, STRICT_IDENTIFIER_RULE } from '../../electron/engine/compaction/prompt';
import { SECTIONS } from '../../electron/engine/compaction/sections';
import { serializeMessage } from '../../electron/engine/compaction/serialize';
import type { Message } from '../../shared/types/messages';
import { readTranscript } from '../../electron/engine/transcript/read';
import { makeSession } from '../helpers/sessions';
import { FIXTURE_TRANSCRIPT } from '../helpers/fixtures';

const settings = (over: Record<string, unknown> = {}) => CompactionSchema.parse(over);

describe('cut point', () => {
  it('never separates a tool call from its result, for every keep budget', () => {
    const { file } = makeSession(12, { resultChars: 800 });
    const items = compactionRegion(readTranscript(file)).items;
    for (let keep = 1; keep < 4000; keep += 37) {
      const cut = findCutPoint(items, keep);
      const first = items[cut.index];
      if (!first) continue;
      expect(first.message.role).not.toBe('toolResult');
      // every kept tool result's call is kept too
      const keptCalls = new Set(items.slice(cut.index).flatMap((i) => (i.message.role === 'assistant' ? i.message.content.filter((b) => b.type === 'toolCall').map((b) => (b as { id: string }).id) : [])));
      for (const it of items.slice(cut.index)) if (it.message.role === 'toolResult') expect(keptCalls.has(it.message.toolCallId)).toBe(true);
    }
  });

  it('when the budget is reached inside a final tool loop, the cut falls at the nearest user/assistant before it', () => {
    const { file, session } = makeSession(3, { resultChars: 100 });
    session.appendMessage({ role: 'user', content: 'run all the checks' });
    session.appendMessage({
      role: 'assistant',
      content: [0, 1, 2, 3].map((n) => ({ type: 'toolCall' as const, id: `loop${n}`, name: 'bash', arguments: { n } })),
    });
    for (let n = 0; n < 4; n++) {
      session.appendMessage({ role: 'toolResult', toolCallId: `loop${n}`, toolName: 'bash', content: [{ type: 'text', text: 'z'.repeat(4000) }], isError: false });
    }
    const items = compactionRegion(readTranscript(file)).items;
    const cut = findCutPoint(items, 1500); // reached inside the last tool results
    expect(items[cut.index]?.message.role).toBe('assistant');
    expect(items.slice(cut.index).filter((i) => i.message.role === 'toolResult')).toHaveLength(4);
    expect(cut.index).toBeGreaterThan(0);
  });

  it('keeps at least keepRecentTokens (when there is that much) and summarises the rest', () => {
    const { file } = makeSession(10, { resultChars: 800 });
    const t = readTranscript(file);
    const plan = planCompaction(t, { settings: settings({ keepRecentTokens: 1000 }), contextWindowTokens: 100_000 });
    expect(plan.possible).toBe(true);
    expect(plan.keptTokens).toBeGreaterThanOrEqual(1000 - 250); // cut moves forward to the next user/assistant
    expect(plan.keptTokens + plan.summarizedTokens).toBe(compactionRegion(t).items.reduce((n, i) => n + i.tokens, 0));
    expect(plan.kept[0]?.message.role).not.toBe('toolResult');
    expect(plan.firstKeptEntryId).toBe(plan.kept[0]?.entry.id);
  });

  it('--all keeps nothing: firstKeptEntryId is the new compaction itself', () => {
    const { file } = makeSession(3);
    const plan = planCompaction(readTranscript(file), { settings: settings(), contextWindowTokens: 100_000, all: true });
    expect(plan.kept).toHaveLength(0);
    expect(plan.firstKeptEntryId).toBe(plan.compactionId);
    expect(plan.toSummarize).toHaveLength(12);
  });

  it('a history within the keep budget has nothing to compact and says why', () => {
    const { file } = makeSession(2);
    const plan = planCompaction(readTranscript(file), { settings: settings(), contextWindowTokens: 100_000 });
    expect(plan.possible).toBe(false);
    expect(plan.reason).toMatch(/nothing to compact/);
  });

  it('keep budget: keepRecentTokens, capped at a quarter of a small window and by a smaller maxHistoryShare', () => {
    expect(keepBudget(settings({ keepRecentTokens: 20000, maxHistoryShare: 0.5 }), 16000)).toBe(4000);
    expect(keepBudget(settings({ keepRecentTokens: 20000, maxHistoryShare: 0.1 }), 16000)).toBe(1600);
    expect(keepBudget(settings(), 80000)).toBe(20000);
    expect(keepBudget(settings(), 200000)).toBe(20000);
  });

  it('on the fixture: the region starts at the older compaction\'s firstKeptEntryId and the prompt updates its summary', () => {
    const t = readTranscript(FIXTURE_TRANSCRIPT);
    const plan = planCompaction(t, { settings: settings({ keepRecentTokens: 30 }), contextWindowTokens: 100_000, instructions: 'focus on the port' });
    expect(plan.previous?.id).toBe('a000000d');
    expect(plan.toSummarize[0]?.entry.id).toBe('a000000b');
    expect(plan.prompt.user).toContain('<previous-summary>\n## Decisions\n- Server port is 8787');
    expect(plan.prompt.user).toContain('Additional focus for this summary:\nfocus on the port');
    expect(plan.prompt.user).toContain('[User]: Here is the error I still see: [1 image]');
    expect(plan.parentId).toBe('a0000018');
  });
});

describe('summariser prompt and serialisation', () => {
  it('has every heading and the strict identifier rule; forbids continuing the conversation', () => {
    const sys = summarySystemPrompt(settings());
    expect(sys).toContain('Do NOT continue the conversation');
    expect(sys).toContain(STRICT_IDENTIFIER_RULE);
    expect(summarySystemPrompt(settings({ identifierPolicy: 'off' }))).not.toContain('Identifiers:');
    expect(summarySystemPrompt(settings({ identifierPolicy: 'custom', identifierInstructions: 'Keep ticket ids.' }))).toContain('Keep ticket ids.');
    const user = summaryUserPrompt('[User]: hi', undefined);
    for (const { heading } of SECTIONS) expect(user).toContain(heading);
  });

  it('labels roles and cuts tool results at 2,000 chars', () => {
    const messages: Message[] = [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'hi' }, { type: 'toolCall', id: 'c', name: 'read', arguments: { path: 'a.ts' } }] },
      { role: 'toolResult', toolCallId: 'c', toolName: 'read', content: [{ type: 'text', text: 'y'.repeat(2500) }], isError: false },
    ] as Message[];
    const s = messages.map((m) => serializeMessage(m)).join('\n\n');
    expect(s).toBe(`[User]: hello\n\n[Assistant]: hi\n[Assistant tool calls]: read({"path":"a.ts"})\n\n[Tool result]: ${'y'.repeat(2000)}\n[... 500 more characters truncated]`);
  });
});
