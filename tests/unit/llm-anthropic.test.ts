import { describe, expect, it } from 'vitest';
import { AnthropicLlm } from '../../electron/engine/llm/anthropic';
import { AuthError, ContextOverflowError } from '../../electron/engine/llm/types';
import type { StreamEvent } from '../../electron/engine/core/llm';
import { LlmHttpError } from '../../electron/engine/llm/errors';
import type { Message } from '../../shared/types/messages';
import { event, recordingSleep, startFixture } from '../helpers/llm-fixture';

const start = (usage: Record<string, number>) =>
  event({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, usage } });
const stop = (reason: string, output: number) => [event({ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: output } }), event({ type: 'message_stop' })];

function client(url: string, extra: Partial<ConstructorParameters<typeof AnthropicLlm>[0]> = {}) {
  const rec = recordingSleep();
  const llm = new AnthropicLlm({ baseUrl: url, model: 'claude-sonnet-4-5', apiKey: 'sk-ant-test', keyHint: 'set cairn.llm.apiKey or ANTHROPIC_API_KEY', deps: { sleep: rec.sleep, random: () => 0.5 }, ...extra });
  return { llm, delays: rec.delays };
}

describe('Anthropic Messages client', () => {
  it('streams thinking, text and a tool call; reports cache usage; sends the wire format with cache_control', async () => {
    const fx = await startFixture([
      {
        sse: [
          start({ input_tokens: 12, cache_creation_input_tokens: 2000, cache_read_input_tokens: 500, output_tokens: 1 }),
          event({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
          event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Check the ' } }),
          event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'notes.' } }),
          event({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig==' } }),
          event({ type: 'content_block_stop', index: 0 }),
          event({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
          'event: ping\ndata: {"type": "ping"}',
          event({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me look' } }),
          event({ type: 'content_block_stop', index: 1 }),
          event({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_01', name: 'memory_get', input: {} } }),
          event({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } }),
          event({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"path": "memory/2026-' } }),
          event({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '11-29.md", "from": 3}' } }),
          event({ type: 'content_block_stop', index: 2 }),
          ...stop('tool_use', 42),
        ],
      },
    ]);
    const { llm } = client(fx.url);
    const events: StreamEvent[] = [];
    const history: Message[] = [
      { role: 'user', content: 'what did I note?' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'no sig' }, { type: 'thinking', thinking: 'signed', thinkingSignature: 'abc' }, { type: 'toolCall', id: 'call|1', name: 'read', arguments: { path: 'a' } }] },
      { role: 'toolResult', toolCallId: 'call|1', toolName: 'read', content: [{ type: 'text', text: 'A' }, { type: 'image', data: 'BBBB', mimeType: 'image/jpeg' }], isError: true },
      { role: 'user', content: 'and?' },
    ];
    const res = await llm.chat({
      system: 'You are Cairn.',
      messages: history,
      tools: [{ name: 'memory_get', description: 'Get a memory file', parameters: { type: 'object' } }],
      onEvent: (e) => events.push(e),
    });
    expect(events).toEqual([
      { type: 'thinking', delta: 'Check the ' },
      { type: 'thinking', delta: 'notes.' },
      { type: 'text', delta: 'Let me look' },
      { type: 'toolCall', id: 'toolu_01', name: 'memory_get', arguments: { path: 'memory/2026-11-29.md', from: 3 } },
    ]);
    expect(res.message.content).toEqual([
      { type: 'thinking', thinking: 'Check the notes.', thinkingSignature: 'sig==' },
      { type: 'text', text: 'Let me look' },
      { type: 'toolCall', id: 'toolu_01', name: 'memory_get', arguments: { path: 'memory/2026-11-29.md', from: 3 } },
    ]);
    expect(res.stopReason).toBe('toolUse');
    expect(res.usage).toEqual({ input: 12, output: 42, cacheRead: 500, cacheWrite: 2000, totalTokens: 2554 });

    const req = fx.requests[0]!;
    expect(req.url).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe('sk-ant-test');
    expect(req.headers['anthropic-version']).toBe('2023-06-01');
    expect(req.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 4096, stream: true });
    expect(req.body.system).toEqual([{ type: 'text', text: 'You are Cairn.', cache_control: { type: 'ephemeral' } }]);
    expect(req.body.tools).toEqual([{ name: 'memory_get', description: 'Get a memory file', input_schema: { type: 'object' } }]);
    expect(req.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'what did I note?' }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'signed', signature: 'abc' }, { type: 'tool_use', id: 'call_1', name: 'read', input: { path: 'a' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', is_error: true, content: [{ type: 'text', text: 'A' }, { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'BBBB' } }] },
          { type: 'text', text: 'and?', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('retries 529 overloaded and 429 with retry-after, then succeeds', async () => {
    const fx = await startFixture([
      { status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      { status: 429, json: { type: 'error', error: { type: 'rate_limit_error', message: 'rate limited' } }, headers: { 'retry-after': '3' } },
      { sse: [start({ input_tokens: 3, output_tokens: 1 }), event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }), event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } }), event({ type: 'content_block_stop', index: 0 }), ...stop('end_turn', 2)] },
    ]);
    const { llm, delays } = client(fx.url, { retry: { baseDelayMs: 1000 } });
    const res = await llm.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(res.message.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(res.stopReason).toBe('stop');
    expect(delays).toEqual([750, 3000]);
  });

  it('throws AuthError on 401 and on 403, naming the key', async () => {
    for (const status of [401, 403]) {
      const fx = await startFixture([{ status, json: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } }]);
      const err = await client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AuthError);
      expect((err as Error).message).toMatch(new RegExp(`HTTP ${status}: invalid x-api-key.*ANTHROPIC_API_KEY`));
      expect(fx.requests).toHaveLength(1);
    }
  });

  it.each([
    ['prompt is too long', 400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 208432 tokens > 200000 maximum' } }],
    ['input + max_tokens', 400, { type: 'error', error: { type: 'invalid_request_error', message: 'input length and `max_tokens` exceed context limit: 197000 + 8192 > 200000, decrease input length or `max_tokens` and try again' } }],
    ['request too large', 413, { type: 'error', error: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } }],
  ])('recognises an overflow: %s', async (_n, status, body) => {
    const fx = await startFixture([{ status, json: body }]);
    await expect(client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(ContextOverflowError);
  });

  it('surfaces an error event in the stream', async () => {
    const fx = await startFixture([{ sse: [start({ input_tokens: 1 }), event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })] }]);
    const err = await client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmHttpError);
    expect((err as Error).message).toMatch(/error during streaming: Overloaded/);
  });

  it('aborts mid-stream', async () => {
    const fx = await startFixture([
      { sse: [start({ input_tokens: 1 }), event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }), event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'a' } })], hang: true },
    ]);
    const ac = new AbortController();
    await expect(client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }], signal: ac.signal, onEvent: () => ac.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    await fx.closed;
  });

  it('keeps a redacted thinking block and sends it back as redacted_thinking; no cache_control when caching is off', async () => {
    const fx = await startFixture([
      { sse: [start({ input_tokens: 1 }), event({ type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'ENC' } }), event({ type: 'content_block_stop', index: 0 }), ...stop('end_turn', 1)] },
      { sse: [start({ input_tokens: 1 }), ...stop('max_tokens', 1)] },
    ]);
    const { llm } = client(fx.url);
    const first = await llm.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(first.message.content).toEqual([{ type: 'thinking', thinking: '[Reasoning redacted]', thinkingSignature: 'ENC', redacted: true }]);
    const second = await client(fx.url, { promptCaching: false }).llm.chat({ system: 's', messages: [{ role: 'user', content: 'hi' }, first.message, { role: 'user', content: 'go' }] });
    expect(second.stopReason).toBe('length');
    expect(fx.requests[1]!.body.system).toEqual([{ type: 'text', text: 's' }]);
    expect(fx.requests[1]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'ENC' }] },
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
    ]);
  });
});
