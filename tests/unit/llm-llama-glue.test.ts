/**
 * The node-llama-cpp glue against a real chat model (SmolLM2-135M-Instruct, fetched by
 * scripts/fetch-test-models.mjs): streaming, usage from the token meter, tool calls through
 * the JSON grammar (SmolLM2's ChatML template has no function calling), context overflow,
 * the one-sequence queue with abort, and disposal. Greedy decoding (node-llama-cpp's default
 * temperature 0), so runs are reproducible; asserts protocol, never the model's wording.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlamaLlm } from '../../electron/engine/llm/llama';
import { ContextOverflowError, type ToolSpec } from '../../electron/engine/llm/types';
import type { StreamEvent } from '../../electron/engine/core/llm';
import { llamaRuntimeHolds } from '../../electron/engine/util/llama-runtime';
import type { Message } from '../../shared/types/messages';
import { testModel } from '../helpers/test-models';

const chat = testModel('chat');

const TOOLS: ToolSpec[] = [
  { name: 'memory_search', description: 'Search long-term memory notes.', parameters: { type: 'object', properties: { query: { type: 'string', minLength: 1 } }, required: ['query'] } },
  { name: 'read', description: 'Read a file in the workspace.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
];

describe.skipIf(!chat.path)(`node-llama-cpp glue on SmolLM2${chat.skip}`, () => {
  let llm: LlamaLlm;
  beforeAll(() => {
    llm = new LlamaLlm({ modelPath: chat.path!, contextSize: 8192, threads: 1 });
  });
  afterAll(async () => {
    await llm?.dispose();
  });

  it('streams text deltas that add up to the reply, within maxTokens, with usage from the token meter', async () => {
    const events: StreamEvent[] = [];
    const res = await llm.chat({ system: 'You are a helpful assistant.', messages: [{ role: 'user', content: 'Say hello.' }], maxTokens: 12, onEvent: (e) => events.push(e) });
    expect(llm.contextWindow).toBe(8192);
    const deltas = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta);
    expect(deltas.length).toBeGreaterThan(1);
    const text = res.message.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
    expect(deltas.join('')).toBe(text);
    expect(['stop', 'length']).toContain(res.stopReason);
    expect(res.usage.output).toBeGreaterThan(0);
    expect(res.usage.output).toBeLessThanOrEqual(12);
    // The prompt (system + user + template) was evaluated, and everything sits in the context.
    expect(res.usage.input + res.usage.cacheRead).toBeGreaterThan(await llm.countTokens('You are a helpful assistant. Say hello.'));
    expect(res.usage.totalTokens).toBe(res.usage.input + res.usage.cacheRead + res.usage.output);
    expect(res.message).toMatchObject({ provider: 'llama', model: 'SmolLM2-135M-Instruct.Q4_1' });
  }, 600_000);

  it('constrains a tool call with the JSON grammar (never a half-made call), then answers the tool result with streamed text', async () => {
    const messages: Message[] = [{ role: 'user', content: 'Use memory_search to find which port the staging server uses.' }];
    const first = await llm.chat({ system: 'You are a helpful assistant with tools.', messages, tools: TOOLS, maxTokens: 64 });
    const made = first.message.content.find((b) => b.type === 'toolCall');
    if (first.stopReason === 'toolUse') {
      // The grammar guarantees a known tool and arguments matching its schema.
      expect(made?.type === 'toolCall' && TOOLS.map((t) => t.name).includes(made.name)).toBe(true);
      if (made?.type === 'toolCall') expect(typeof made.arguments[made.name === 'read' ? 'path' : 'query']).toBe('string');
    } else {
      // Chose to reply, or the call did not fit maxTokens: nothing half-made, a text answer instead.
      expect(made).toBeUndefined();
      expect(first.message.content.some((b) => b.type === 'text')).toBe(true);
    }
    // The tool round as the loop records it (the model's own call when it made one).
    const call = made?.type === 'toolCall' ? made : { type: 'toolCall' as const, id: 'call_1', name: 'memory_search', arguments: { query: 'staging port' } };
    messages.push(made ? first.message : { ...first.message, content: [call] }, { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text: 'memory/2026-11-30.md#L3: staging listens on port 8443' }], isError: false });
    const events: StreamEvent[] = [];
    const second = await llm.chat({ system: 'You are a helpful assistant with tools.', messages, tools: TOOLS, maxTokens: 12, onEvent: (e) => events.push(e) });
    // After the results only a reply is allowed (one tool round per reply in grammar mode).
    expect(second.message.content.some((b) => b.type === 'toolCall')).toBe(false);
    const text = second.message.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('')).toBe(text);
    expect(['stop', 'length']).toContain(second.stopReason);
  }, 600_000);

  it('runs calls one at a time on the single sequence, and a queued call cancels through its signal', async () => {
    const ac = new AbortController();
    const a = llm.chat({ messages: [{ role: 'user', content: 'Count to three.' }], maxTokens: 6 });
    const b = llm.chat({ messages: [{ role: 'user', content: 'Count to ten.' }], maxTokens: 6, signal: ac.signal });
    ac.abort();
    expect(['stop', 'length']).toContain((await a).stopReason);
    await expect(b).rejects.toMatchObject({ name: 'AbortError' });
  }, 600_000);

  it('turns a conversation that no longer fits into a ContextOverflowError instead of dropping history, and disposes the runtime', async () => {
    const small = new LlamaLlm({ modelPath: chat.path!, contextSize: 256, threads: 1 });
    const holdsBefore = llamaRuntimeHolds();
    try {
      const long = Array.from({ length: 60 }, (_, i) => `Line ${i}: the deploy log says service-${i} restarted on port ${8000 + i}.`).join('\n');
      const err = await small.chat({ messages: [{ role: 'user', content: long }], maxTokens: 8 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ContextOverflowError);
      expect((err as Error).message).toMatch(/no longer fits the local model's context \(256 tokens/);
    } finally {
      await small.dispose();
    }
    // The shared runtime is still held by `llm` (loaded above); only `small`'s hold went.
    expect(holdsBefore).toBe(1);
    expect(llamaRuntimeHolds()).toBe(1);
  }, 600_000);
});
