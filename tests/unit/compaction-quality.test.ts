/**
 * Judging a model's compaction summary and keeping every identifier (issue 15 item 5):
 * empty, looping, conversational or shapeless summaries are asked for again and then
 * replaced by the extract with the reason recorded; a summary that drops identifiers is kept
 * and completed under `## Exact identifiers`. Scripted LLMs through the LLM interface.
 */
import { describe, expect, it } from 'vitest';
import { compact } from '../../electron/engine/compaction/compact';
import { judgeSummary } from '../../electron/engine/compaction/quality';
import { completeIdentifiers, identifierRetention } from '../../electron/engine/compaction/retention';
import { CompactionSchema } from '../../electron/engine/config/schema';
import type { ChatRequest, ChatResult, LLM } from '../../electron/engine/llm/types';
import { ScriptedLlm } from '../helpers/scripted-llm';
import { makeSession } from '../helpers/sessions';

const GOOD = '## Decisions\n- Keep port 3000 for module 0.\n\n## Open TODOs\n- (none)\n\n## Constraints/Rules\n- (none)\n\n## Pending user asks\n- Check the remaining modules.\n\n## Exact identifiers\n- src/mod0.ts';
const settings = CompactionSchema.parse({ keepRecentTokens: 200 });

describe('judgeSummary', () => {
  it('accepts a summary in the required shape, rules and tables included', () => {
    expect(judgeSummary(GOOD)).toEqual({ ok: true });
    // Prose under a heading of its own counts as content.
    expect(judgeSummary('## Summary\nThe user moved the deploy to Friday.\n\n## Decisions\n- (none)\n\n## Open TODOs\n- (none)')).toEqual({ ok: true });
    expect(judgeSummary(`${GOOD}\n\n${'='.repeat(60)}\n| a | b |\n|---|---|\n| 1 | 2 |`)).toEqual({ ok: true });
  });

  it.each([
    ['empty', '   \n  ', 'empty'],
    ['a few characters', '## Done', 'empty'],
    ['one line over and over', Array.from({ length: 10 }, () => '- The user wants the port fixed.').join('\n'), 'repeated'],
    ['a loop', `## Decisions\n- ${'keep going and '.repeat(40)}`, 'repeated'],
    ['a reply to the user', "Sure! I'll fix the port in src/mod0.ts now and run the tests again.", 'continues-conversation'],
    ['the next turn of the transcript', '[Assistant]: Looking at src/mod3.ts next.\n[Tool result]: ok', 'continues-conversation'],
    ['prose without headings', 'The session covered modules 0 to 5 and settled on keeping their ports; the user still wants the rest checked.', 'no-headings'],
    ['the headings with nothing under them', '## Decisions\n\n## Open TODOs\n- (none)\n\n## Constraints/Rules\n- none\n\n## Pending user asks\n\n## Exact identifiers\n- (none)', 'no-content'],
  ])('rejects %s', (_name, text, fault) => {
    const v = judgeSummary(text);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.fault).toBe(fault);
  });
});

describe('identifierRetention / completeIdentifiers', () => {
  const old = '[User]: deploy src/server.ts to https://deploy.example/app on 127.0.0.1:8787, ticket OPS-42, commit 9fceb02d0ae5';
  it('measures the share of the old part’s identifiers present in a summary', () => {
    const r = identifierRetention(old, '## Exact identifiers\n- src/server.ts\n- OPS-42');
    expect(r.total).toBe(5);
    expect(r.kept).toBe(2);
    expect(r.share).toBeCloseTo(0.4);
    expect(r.missing).toEqual(['https://deploy.example/app', '127.0.0.1:8787', '9fceb02d0ae5']);
    expect(identifierRetention('no identifiers here', 'x').share).toBe(1);
  });

  it('keeps the model’s text and adds the missing ones inside its Exact identifiers section', () => {
    const summary = '## Decisions\n- Deploy today.\n\n## Exact identifiers\n- src/server.ts\n\n## Notes\n- none';
    const c = completeIdentifiers(old, summary);
    expect(c.text.startsWith('## Decisions\n- Deploy today.\n\n## Exact identifiers\n- src/server.ts\n- (added by Cairn')).toBe(true);
    expect(c.text.endsWith('- `9fceb02d0ae5`\n\n## Notes\n- none')).toBe(true);
    expect(identifierRetention(old, c.text).share).toBe(1);
    expect(c.added).toBe(4);
  });
});

describe('compact() judges the model’s summary', () => {
  it('asks again when the model chats instead of summarising, and records why', async () => {
    const { file } = makeSession(8);
    const llm = new ScriptedLlm((_req, n) => ({ text: n === 0 ? "Sure, I'll check the remaining modules now." : GOOD }));
    const r = await compact({ file, settings, contextWindowTokens: 100_000, llm });
    // A compaction that did not happen fails here (it used to return early and pass).
    if (!r.compacted) throw new Error(`nothing was compacted: ${r.reason}`);
    expect(r.extract).toBe(false);
    expect(r.modelCalls).toBe(2);
    expect(r.summary.startsWith(GOOD)).toBe(true);
    expect(r.entry.details).toMatchObject({ summaryRetried: 'the model continued the conversation instead of summarising it' });
  });

  it('falls back to the extract when the second answer is bad too; the reason is in the entry', async () => {
    const { file } = makeSession(8);
    const llm = new ScriptedLlm(() => ({ text: Array.from({ length: 12 }, () => '- Done with the modules.').join('\n') }));
    const r = await compact({ file, settings, contextWindowTokens: 100_000, llm });
    if (!r.compacted) throw new Error(`nothing was compacted: ${r.reason}`);
    expect(r.extract).toBe(true);
    expect(llm.requests).toHaveLength(2);
    expect(r.entry.details).toMatchObject({ extract: true, extractReason: "the model's summary was rejected twice: the summary repeats the same text in a loop" });
    expect(r.summary).toContain('src/mod0.ts');
  });

  it('a summary that drops identifiers is kept, and every identifier of the old part survives', async () => {
    const { file } = makeSession(8);
    const llm = new ScriptedLlm(() => ({ text: GOOD }));
    const r = await compact({ file, settings, contextWindowTokens: 100_000, llm });
    // A compaction that did not happen fails here (it used to return early and pass).
    if (!r.compacted) throw new Error(`nothing was compacted: ${r.reason}`);
    expect(r.extract).toBe(false);
    expect(r.summary.startsWith(GOOD)).toBe(true);
    const old = r.plan.pieces.map((p) => p.text).join('\n\n');
    expect(identifierRetention(old, GOOD).share).toBeLessThan(0.5);
    expect(identifierRetention(old, r.summary).share).toBe(1);
    for (const id of ['src/mod4.ts', 'port 3004', 'src/mod1.ts']) expect(r.summary).toContain(id);
    const ret = r.identifierRetention;
    expect(ret && ret.kept).toBe(2); // src/mod0.ts and "port 3000"
    expect(r.entry.details).toMatchObject({ identifiers: { total: ret?.total, keptByModel: 2, added: (ret?.total ?? 0) - 2, notShown: 0 } });
  });
});

/**
 * A model that loops: it streams "- The user wants the port fixed. " one delta at a time until
 * it has written `maxTokens` (≈ 4 characters a token) or is aborted, and counts what it wrote.
 */
class LoopingLlm implements LLM {
  readonly provider = 'scripted';
  readonly model = 'looping-1';
  readonly contextWindow = 100_000;
  deltas: number[] = [];

  async chat(req: ChatRequest): Promise<ChatResult> {
    const line = '- The user wants the port fixed. ';
    const budget = (req.maxTokens ?? 1000) * 4;
    let text = '';
    let n = 0;
    this.deltas.push(0);
    while (text.length < budget) {
      await Promise.resolve();
      if (req.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      text += line;
      req.onEvent?.({ type: 'text', delta: line });
      this.deltas[this.deltas.length - 1] = ++n;
    }
    const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
    return { message: { role: 'assistant', content: [{ type: 'text', text }], provider: this.provider, model: this.model, usage, stopReason: 'length' }, usage, stopReason: 'length' };
  }

  async dispose(): Promise<void> {}
}

describe('a looping model is stopped while it streams', () => {
  it('each summary call ends once the loop shows, not at maxTokens; the extract is used with the reason', async () => {
    const { file } = makeSession(8);
    const llm = new LoopingLlm();
    const r = await compact({ file, settings, contextWindowTokens: 100_000, llm });
    if (!r.compacted) throw new Error(`nothing was compacted: ${r.reason}`);
    expect(r.extract).toBe(true);
    // Asked twice (the retry), each stopped after a few repeats of the line, far below the
    // 8,192 tokens (≈ 990 repeats) each call was allowed.
    expect(llm.deltas).toHaveLength(2);
    for (const n of llm.deltas) expect(n).toBeLessThan(20);
    expect(r.entry.details).toMatchObject({ extractReason: "the model's summary was rejected twice: the summary repeats the same text in a loop" });
  });
});
