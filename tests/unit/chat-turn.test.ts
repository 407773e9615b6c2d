import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../electron/engine/chat/turn';
import { workspaceTools } from '../../electron/engine/chat/tools/workspace';
import { readSessionIndex } from '../../electron/engine/transcript/sessions-index';
import { ContextOverflowError } from '../../electron/engine/llm/types';
import type { Message } from '../../shared/types/messages';
import { ScriptedLlm, isFlushRequest, isSummaryRequest } from '../helpers/scripted-llm';
import { TURN_T0, transcriptLines, transcriptRoles, turnSetup } from '../helpers/turn-setup';

const T0 = TURN_T0;
const setup = turnSetup;
const lines = transcriptLines;
const roles = transcriptRoles;

describe('assistant turn loop', () => {
  it('runs a read tool call, then answers; every step lands in the JSONL file', async () => {
    const s = setup({ 'notes/todo.md': 'buy milk\ncall Ana at 5\n' });
    const llm = new ScriptedLlm((req, n) => (n === 0 ? { toolCalls: [{ name: 'read', arguments: { path: 'notes/todo.md' } }], usage: { input: 50, output: 5, totalTokens: 55 } } : { text: 'You need to buy milk and call Ana at 5.', usage: { input: 80, output: 12, totalTokens: 92 } }));
    const res = await runTurn('What is on my todo list?', s.opts(llm));

    expect(res).toMatchObject({ sessionId: 's1', reply: 'You need to buy milk and call Ana at 5.', stopReason: 'stop', modelCalls: 2, toolCalls: 1, compactions: 0 });
    expect(roles(s.file)).toEqual(['user', 'assistant', 'custom:openclaw.cache-ttl', 'toolResult', 'assistant', 'custom:openclaw.cache-ttl']);
    const entries = lines(s.file).slice(1);
    // A proper entry tree: each entry hangs under the previous one.
    entries.forEach((e, i) => expect(e.parentId).toBe(i === 0 ? null : entries[i - 1]!.id));
    expect(entries[0]!.message).toMatchObject({ role: 'user', content: 'What is on my todo list?', timestamp: T0 });
    expect(entries[1]!.message.content).toEqual([{ type: 'toolCall', id: 'call_0_0', name: 'read', arguments: { path: 'notes/todo.md' } }]);
    expect(entries[1]!.message).toMatchObject({ provider: 'scripted', model: 'script-1', stopReason: 'toolUse', usage: { totalTokens: 55 } });
    expect(entries[2]!.data).toEqual({ timestamp: T0, provider: 'scripted', modelId: 'script-1' });
    expect(entries[3]!.message).toMatchObject({ role: 'toolResult', toolCallId: 'call_0_0', toolName: 'read', isError: false, content: [{ type: 'text', text: 'buy milk\ncall Ana at 5\n' }] });

    // The second call saw the tool result; the tools were offered each time.
    const second = llm.requests[1]!;
    expect(second.system).toBe('You are a test assistant.');
    expect(second.tools?.map((t) => t.name)).toEqual(['read', 'write', 'edit']);
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
    expect(s.events.map((e) => e.kind)).toEqual(['turnStart', 'assistant', 'toolCall', 'toolResult', 'text', 'text', 'assistant', 'done']);
    expect(readSessionIndex(s.sessionsIndex)['s1']).toMatchObject({ totalTokens: 92, updatedAt: T0 });
  });

  it('prunes old tool results in what the model is sent once the cache TTL expired; the file keeps them', async () => {
    const big = `${'log line with details\n'.repeat(1500)}`; // ~33,000 chars
    const s = setup({ 'big.log': big }, { compaction: { reserveTokens: 1000, reserveTokensFloor: 1000, memoryFlush: { enabled: false } } });
    const llm = new ScriptedLlm((req) => {
      const last = req.messages[req.messages.length - 1]!;
      return last.role === 'user' ? { toolCalls: [{ name: 'read', arguments: { path: 'big.log' } }] } : { text: 'Read it.' };
    }, 60_000);
    for (let i = 0; i < 4; i++) {
      await runTurn(`read the log (${i})`, s.opts(llm));
      s.clock.t += 60_000; // inside the 5-minute TTL: no pruning yet
    }
    const before = llm.requests.length;
    expect(llm.requests.every((r) => !JSON.stringify(r.messages).includes('[Tool result trimmed'))).toBe(true);
    expect(s.events.some((e) => e.kind === 'pruning')).toBe(false);

    s.clock.t += 10 * 60_000; // the prompt cache has expired
    const bytesBefore = fs.readFileSync(s.file);
    const inodeBefore = fs.statSync(s.file).ino;
    await runTurn('and once more', s.opts(llm));
    // The pruning turn only appended: every old byte is where it was, in the same file (no rewrite, no rename).
    expect(fs.readFileSync(s.file).subarray(0, bytesBefore.length).equals(bytesBefore)).toBe(true);
    expect(fs.statSync(s.file).ino).toBe(inodeBefore);
    const sent = llm.requests[before]!.messages;
    const results = sent.filter((m): m is Extract<Message, { role: 'toolResult' }> => m.role === 'toolResult');
    expect(results).toHaveLength(4);
    const texts = results.map((r) => (r.content[0] as { text: string }).text);
    // The oldest result is before the 3rd newest assistant: trimmed; the newest stay whole.
    expect(texts[0]).toMatch(/\[Tool result trimmed: kept first 1500 chars and last 1500 chars of \d+ chars\.\]$|^\[Old tool result content cleared\]$/);
    expect(texts[3]).toBe(big);
    const pruning = s.events.find((e) => e.kind === 'pruning');
    expect(pruning).toMatchObject({ kind: 'pruning' });
    expect((pruning as { ratioAfter: number; ratioBefore: number }).ratioAfter).toBeLessThan((pruning as { ratioBefore: number }).ratioBefore);
    // On disk every tool result is still whole.
    const onDisk = lines(s.file).filter((e) => e.type === 'message' && e.message.role === 'toolResult');
    expect(onDisk).toHaveLength(5);
    for (const e of onDisk) expect(e.message.content[0].text).toBe(big);
  });

  it('runs the memory flush, then compaction, when a reply crosses the threshold', async () => {
    const s = setup({}, { compaction: { reserveTokens: 10_000, reserveTokensFloor: 10_000, keepRecentTokens: 50, memoryFlush: { softThresholdTokens: 4_000 } } });
    const order: string[] = [];
    const llm = new ScriptedLlm((req) => {
      if (isFlushRequest(req)) {
        order.push('flush');
        const wrote = req.messages.some((m) => m.role === 'toolResult');
        return wrote ? { text: 'NO_REPLY' } : { toolCalls: [{ name: 'write', arguments: { path: 'memory/2026-11-30.md', content: '- Project Falcon ships on 2026-12-15' } }] };
      }
      if (isSummaryRequest(req)) {
        order.push('summary');
        return { text: '## Decisions\n- Falcon ships 2026-12-15\n## Open TODOs\n(none)\n## Constraints/Rules\n(none)\n## Pending user asks\n(none)\n## Exact identifiers\n- 2026-12-15' };
      }
      order.push('chat');
      const n = order.filter((o) => o === 'chat').length;
      // The third reply reports a context near the 50k window: trigger (a).
      return { text: `answer ${n} ${'x'.repeat(400)}`, usage: { input: n === 3 ? 45_000 : 500, output: 10, totalTokens: n === 3 ? 45_010 : 510 } };
    }, 50_000);
    for (const q of ['Falcon ships on 2026-12-15, remember that', 'what else?', 'and now?']) await runTurn(q, s.opts(llm));

    expect(order).toEqual(['chat', 'chat', 'chat', 'flush', 'flush', 'summary']);
    const kinds = s.events.map((e) => e.kind);
    expect(kinds.indexOf('flush')).toBeLessThan(kinds.indexOf('compaction'));
    expect(s.events.find((e) => e.kind === 'flush')).toMatchObject({ ran: true, wrote: ['memory/2026-11-30.md'] });
    expect(s.events.find((e) => e.kind === 'compaction')).toMatchObject({ trigger: 'threshold', compacted: true, extract: false });
    expect(fs.readFileSync(path.join(s.workspace, 'memory', '2026-11-30.md'), 'utf8')).toContain('- Project Falcon ships on 2026-12-15');
    const compaction = lines(s.file).find((e) => e.type === 'compaction')!;
    expect(compaction.summary).toContain('Falcon ships 2026-12-15');
    expect(compaction.details).toMatchObject({ trigger: 'threshold' });
    expect(readSessionIndex(s.sessionsIndex)['s1']).toMatchObject({ compactionCount: 1, memoryFlushCompactionCount: 0 });

    // The next turn starts from the summary, and the flush does not run again in this cycle.
    await runTurn('next', s.opts(llm));
    const last = llm.requests[llm.requests.length - 1]!;
    expect(last.messages[0]!.role).toBe('user');
    expect(JSON.stringify(last.messages[0])).toContain('The conversation history before this point was compacted');
    expect(order.filter((o) => o === 'flush')).toHaveLength(2);
  });

  it('on a context overflow compacts and retries once; the retry is sent the compacted context', async () => {
    const s = setup({}, { compaction: { keepRecentTokens: 20 } });
    let overflowed = false;
    const llm = new ScriptedLlm((req) => {
      if (isSummaryRequest(req)) return { text: '## Decisions\n- earlier talk summarised' };
      const text = JSON.stringify(req.messages);
      if (text.includes('trigger overflow') && !overflowed) {
        overflowed = true;
        throw new ContextOverflowError('prompt is too long: 210000 tokens > 200000 maximum');
      }
      return { text: `ok ${'y'.repeat(300)}` };
    });
    await runTurn('first question with some words', s.opts(llm));
    await runTurn('second question with some words', s.opts(llm));
    const res = await runTurn('trigger overflow', s.opts(llm));
    expect(res.reply).toMatch(/^ok /);
    expect(res.compactions).toBe(1);
    const kinds = s.events.map((e) => e.kind);
    expect(kinds.slice(kinds.indexOf('retry'))).toEqual(['retry', 'compaction', 'text', 'text', 'assistant', 'done']);
    expect(s.events.find((e) => e.kind === 'compaction')).toMatchObject({ trigger: 'overflow', compacted: true });
    const retried = llm.requests[llm.requests.length - 1]!;
    expect(JSON.stringify(retried.messages[0])).toContain('earlier talk summarised');
    expect(JSON.stringify(retried.messages)).toContain('trigger overflow');
    expect(roles(s.file).filter((r) => r === 'compaction')).toHaveLength(1);
  });

  it('gives up after one retry when the model overflows again', async () => {
    const s = setup({}, { compaction: { keepRecentTokens: 20 } });
    const llm = new ScriptedLlm((req) => {
      if (isSummaryRequest(req)) return { text: '## Decisions\n- x' };
      if (JSON.stringify(req.messages).includes('huge')) throw new ContextOverflowError('the request exceeds the available context size');
      return { text: `fine ${'z'.repeat(300)}` };
    });
    await runTurn('warm up one', s.opts(llm));
    await runTurn('warm up two', s.opts(llm));
    await expect(runTurn('huge', s.opts(llm))).rejects.toBeInstanceOf(ContextOverflowError);
    const chatCalls = llm.requests.filter((r) => !isSummaryRequest(r) && JSON.stringify(r.messages).includes('huge'));
    expect(chatCalls).toHaveLength(2);
    // The user's message is kept, after it the one compaction of the retry.
    expect(roles(s.file).slice(-2)).toEqual(['user', 'compaction']);
  });

  it('/compact with instructions compacts by hand; without a model it writes the extract', async () => {
    const s = setup({}, { compaction: { keepRecentTokens: 20 } });
    const llm = new ScriptedLlm(() => ({ text: `reply ${'w'.repeat(300)} see /srv/app/config.yaml` }));
    await runTurn('set up the server at /srv/app', s.opts(llm));
    await runTurn('what port? use 8443', s.opts(llm));
    const res = await runTurn('/compact focus on ports', s.opts(undefined));
    expect(res).toMatchObject({ reply: '', compactions: 1, modelCalls: 0 });
    const c = lines(s.file).find((e) => e.type === 'compaction')!;
    expect(c.details).toMatchObject({ trigger: 'manual', instructions: 'focus on ports', extract: true });
    expect(c.summary).toContain('/srv/app');
    // No user message was appended for the command.
    expect(JSON.stringify(lines(s.file))).not.toContain('focus on ports"}]');
    await expect(runTurn('hello', s.opts(undefined))).rejects.toThrow(/no model configured/);
  });

  it('cancelling during a tool round leaves a well-formed transcript (every call has a result)', async () => {
    const s = setup({ 'a.md': 'A' });
    const ac = new AbortController();
    const llm = new ScriptedLlm(() => ({ toolCalls: [{ name: 'read', arguments: { path: 'a.md' } }, { name: 'read', arguments: { path: 'a.md' } }] }));
    const tools = workspaceTools({ workspace: s.workspace, writable: () => true });
    const slowRead = { ...tools[0]!, run: (args: Record<string, unknown>) => (ac.abort(), tools[0]!.run(args)) };
    await expect(runTurn('read twice', s.opts(llm, { signal: ac.signal, tools: [slowRead, ...tools.slice(1)] }))).rejects.toMatchObject({ name: 'AbortError' });
    const results = lines(s.file).filter((e) => e.type === 'message' && e.message.role === 'toolResult');
    expect(results.map((e) => e.message.isError)).toEqual([false, true]);
    expect(results[1]!.message.content[0].text).toMatch(/Cancelled/);
  });

  it('compacts before sending when the history would not fit (trigger b)', async () => {
    const s = setup({}, { compaction: { reserveTokens: 1000, reserveTokensFloor: 1000, keepRecentTokens: 50, memoryFlush: { enabled: false } } });
    const llm = new ScriptedLlm((req) => (isSummaryRequest(req) ? { text: '## Decisions\n- the first exchange' } : { text: 'noted' }), 10_000);
    await runTurn('a short first question', s.opts(llm));
    expect(s.events.some((e) => e.kind === 'compaction')).toBe(false);
    // ~10,000 tokens × 1.2 > 10,000 − 1,000: compact before the call.
    const res = await runTurn(`please read this: ${'lorem ipsum '.repeat(3400)}`, s.opts(llm));
    expect(res.compactions).toBe(1);
    expect(s.events.find((e) => e.kind === 'compaction')).toMatchObject({ trigger: 'preflight', compacted: true });
    const sent = llm.requests.at(-1)!.messages;
    expect(JSON.stringify(sent[0])).toContain('the first exchange');
    expect(JSON.stringify(sent)).not.toContain('a short first question');
    // The file still has everything, plus the compaction entry.
    expect(fs.readFileSync(s.file, 'utf8')).toContain('a short first question');
    expect(roles(s.file)).toEqual(['user', 'assistant', 'custom:openclaw.cache-ttl', 'user', 'compaction', 'assistant', 'custom:openclaw.cache-ttl']);
  });

  it('stops a model that keeps calling tools at the round limit, still pairing every call with a result', async () => {
    const s = setup({ 'a.md': 'A' });
    const llm = new ScriptedLlm(() => ({ toolCalls: [{ name: 'read', arguments: { path: 'a.md' } }] }));
    const res = await runTurn('loop forever', s.opts(llm, { maxToolRounds: 2 }));
    expect(res).toMatchObject({ modelCalls: 2, toolCalls: 2, stopReason: 'toolUse', reply: '' });
    const results = lines(s.file).filter((e) => e.type === 'message' && e.message.role === 'toolResult');
    expect(results.map((e) => [e.message.isError, e.message.content[0].text])).toEqual([
      [false, 'A'],
      [true, 'not run: the turn reached its limit of 2 tool rounds'],
    ]);
  });

  it('scales the compaction budgets to a small window: an 8k model with default settings chats without compacting', async () => {
    const s = setup();
    const llm = new ScriptedLlm(() => ({ text: 'short answer' }), 8192);
    await runTurn('hi', s.opts(llm));
    await runTurn('and again', s.opts(llm));
    expect(s.events.filter((e) => e.kind === 'compaction' || e.kind === 'flush')).toEqual([]);
    expect(llm.requests.every((r) => !isSummaryRequest(r) && !isFlushRequest(r))).toBe(true);
  });

  it('a reply cancelled mid-stream keeps the streamed text, marked aborted', async () => {
    const s = setup();
    const ac = new AbortController();
    const llm = new ScriptedLlm(async (req) => {
      req.onEvent?.({ type: 'text', delta: 'The answer is ' });
      ac.abort();
      throw Object.assign(new Error('aborted'), { name: 'AbortError' });
    });
    await expect(runTurn('question', s.opts(llm, { signal: ac.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    const last = lines(s.file).at(-1)!;
    expect(last.message).toMatchObject({ role: 'assistant', stopReason: 'aborted', content: [{ type: 'text', text: 'The answer is ' }] });
  });
});
