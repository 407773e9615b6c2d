import { describe, expect, it } from 'vitest';
import { OpenAiCompatibleLlm } from '../../electron/engine/llm/openai';
import { AuthError, ContextOverflowError } from '../../electron/engine/llm/types';
import type { StreamEvent } from '../../electron/engine/core/llm';
import { LlmHttpError } from '../../electron/engine/llm/errors';
import type { Message } from '../../shared/types/messages';
import { data, recordingSleep, startFixture } from '../helpers/llm-fixture';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => data({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
const usage = (p: number, c: number, cached = 0) =>
  data({ id: 'c1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: p, completion_tokens: c, total_tokens: p + c, prompt_tokens_details: { cached_tokens: cached } } });

function client(url: string, extra: Partial<ConstructorParameters<typeof OpenAiCompatibleLlm>[0]> = {}) {
  const rec = recordingSleep();
  const llm = new OpenAiCompatibleLlm({ baseUrl: url, model: 'qwen3:8b', apiKey: 'sk-test', keyHint: 'set cairn.llm.apiKey or OPENAI_API_KEY', deps: { sleep: rec.sleep, random: () => 0.5 }, ...extra });
  return { llm, delays: rec.delays };
}

describe('OpenAI-compatible client', () => {
  it('streams text deltas, reports usage and sends our messages in the wire format', async () => {
    const fx = await startFixture([
      { sse: [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo — ünïcode' }), chunk({}, 'stop'), usage(120, 7, 100), data('[DONE]')] },
    ]);
    const { llm } = client(fx.url, { maxOutputTokens: 512 });
    const events: StreamEvent[] = [];
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'reading' }, { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.md' } }] },
      { role: 'toolResult', toolCallId: 'call_1', toolName: 'read', content: [{ type: 'text', text: 'file body' }], isError: false },
      { role: 'user', content: 'thanks' },
    ];
    const res = await llm.chat({
      system: 'You are Cairn.',
      messages: history,
      tools: [{ name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
      onEvent: (e) => events.push(e),
    });
    expect(events).toEqual([
      { type: 'text', delta: 'Hel' },
      { type: 'text', delta: 'lo — ünïcode' },
    ]);
    expect(res.message.content).toEqual([{ type: 'text', text: 'Hello — ünïcode' }]);
    expect(res.stopReason).toBe('stop');
    expect(res.usage).toEqual({ input: 20, output: 7, cacheRead: 100, cacheWrite: 0, totalTokens: 127 });
    expect(res.message).toMatchObject({ provider: 'openai', model: 'qwen3:8b', stopReason: 'stop' });

    const req = fx.requests[0]!;
    expect(req.url).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body).toMatchObject({ model: 'qwen3:8b', stream: true, stream_options: { include_usage: true }, max_tokens: 512 });
    expect(req.body.tools).toEqual([{ type: 'function', function: { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } } }]);
    expect(req.body.messages).toEqual([
      { role: 'system', content: 'You are Cairn.' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
      { role: 'assistant', content: 'reading', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.md"}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'file body' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('assembles streamed tool-call deltas by index (id and name first, arguments in pieces)', async () => {
    const fx = await startFixture([
      {
        sse: [
          chunk({ role: 'assistant', content: null, reasoning_content: 'Need two files.' }),
          chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
          chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'memory_search', arguments: '{"query":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: 'th": "MEMORY.md"}' } }] }),
          chunk({ tool_calls: [{ index: 1, function: { arguments: ' "port 8080"}' } }] }),
          chunk({}, 'tool_calls'),
          usage(50, 30),
          data('[DONE]'),
        ],
        chunk: 3,
      },
    ]);
    const { llm } = client(fx.url);
    const events: StreamEvent[] = [];
    const res = await llm.chat({ messages: [{ role: 'user', content: 'hi' }], onEvent: (e) => events.push(e) });
    expect(res.stopReason).toBe('toolUse');
    expect(res.message.content).toEqual([
      { type: 'thinking', thinking: 'Need two files.' },
      { type: 'toolCall', id: 'call_a', name: 'read', arguments: { path: 'MEMORY.md' } },
      { type: 'toolCall', id: 'call_b', name: 'memory_search', arguments: { query: 'port 8080' } },
    ]);
    expect(events.filter((e) => e.type === 'toolCall')).toEqual([
      { type: 'toolCall', id: 'call_a', name: 'read', arguments: { path: 'MEMORY.md' } },
      { type: 'toolCall', id: 'call_b', name: 'memory_search', arguments: { query: 'port 8080' } },
    ]);
    expect(events[0]).toEqual({ type: 'thinking', delta: 'Need two files.' });
  });

  it('treats tool calls finished with "stop" (Ollama) as toolUse and keeps invalid JSON arguments visible', async () => {
    const fx = await startFixture([
      { sse: [chunk({ tool_calls: [{ index: 0, id: 'x', function: { name: 'read', arguments: '{"path": ' } }] }), chunk({}, 'stop'), data('[DONE]')] },
    ]);
    const res = await client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(res.stopReason).toBe('toolUse');
    expect(res.message.content[0]).toEqual({ type: 'toolCall', id: 'x', name: 'read', arguments: { _invalidJson: '{"path": ' } });
  });

  it('retries 429 honouring Retry-After, then 503 with backoff, then succeeds', async () => {
    const fx = await startFixture([
      { status: 429, json: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } }, headers: { 'retry-after': '2' } },
      { status: 503, json: { error: { message: 'Service Unavailable' } } },
      { sse: [chunk({ content: 'ok' }), chunk({}, 'stop'), data('[DONE]')] },
    ]);
    const { llm, delays } = client(fx.url, { retry: { baseDelayMs: 100 } });
    const res = await llm.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(res.message.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(fx.requests).toHaveLength(3);
    // Retry-After: 2 s; then backoff for attempt 2: 100·2¹ = 200 with jitter 0.5 → 150.
    expect(delays).toEqual([2000, 150]);
  });

  it('gives up after the bounded number of attempts with the last error', async () => {
    const fx = await startFixture(Array.from({ length: 5 }, () => ({ status: 500, json: { error: { message: 'boom' } } })));
    const { llm, delays } = client(fx.url, { retry: { maxAttempts: 3 } });
    await expect(llm.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/HTTP 500: boom/);
    expect(fx.requests).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('does not wait for a Retry-After beyond a minute: it says to try again later', async () => {
    const fx = await startFixture([{ status: 429, json: { error: { message: 'Rate limit reached' } }, headers: { 'retry-after': '3600' } }]);
    const { llm, delays } = client(fx.url);
    const err = await llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmHttpError);
    expect((err as Error).message).toMatch(/HTTP 429: Rate limit reached \(the server asks to retry after 3600 s; try again later\)/);
    expect(fx.requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('throws AuthError on 401 naming the key to check, without retrying', async () => {
    const fx = await startFixture([{ status: 401, json: { error: { message: 'Incorrect API key provided: sk-test.', type: 'invalid_request_error', code: 'invalid_api_key' } } }]);
    const err = await client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as Error).message).toMatch(/HTTP 401: Incorrect API key provided.*OPENAI_API_KEY/);
    expect(fx.requests).toHaveLength(1);
  });

  it.each([
    ['OpenAI', 400, { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } }],
    ['llama.cpp server', 400, { error: { code: 400, message: 'request (9412 tokens) exceeds the available context size (8192 tokens), try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 9412, n_ctx: 8192 } }],
    ['Ollama', 500, { error: 'input exceeds context length' }],
    ['vLLM', 400, { object: 'error', message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).", type: 'BadRequestError', code: 400 }],
  ])('recognises a %s context overflow', async (_name, status, body) => {
    const fx = await startFixture([{ status, json: body }]);
    const err = await client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ContextOverflowError);
    expect(fx.requests).toHaveLength(1);
  });

  it('aborts mid-stream: the call rejects with AbortError and the connection closes', async () => {
    const fx = await startFixture([{ sse: [chunk({ content: 'first' })], hang: true }]);
    const ac = new AbortController();
    const p = client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }], signal: ac.signal, onEvent: () => ac.abort() });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    await fx.closed;
  });

  it('gives up on a stream that goes silent (idle timeout) with a clear error', async () => {
    const fx = await startFixture([{ sse: [chunk({ content: 'half' })], hang: true }]);
    const err = await client(fx.url, { idleTimeoutMs: 50 }).llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmHttpError);
    expect((err as Error).message).toMatch(/no data from the server for 50 ms; the connection looks dead/);
    await fx.closed;
  });

  it('reports an error sent inside the stream', async () => {
    const fx = await startFixture([{ sse: [chunk({ content: 'par' }), data({ error: { message: 'the request exceeds the available context size', type: 'exceed_context_size_error' } })] }]);
    await expect(client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toBeInstanceOf(ContextOverflowError);
  });

  it('fails clearly when a stream is cut before it finished', async () => {
    const fx = await startFixture([{ sse: [chunk({ content: 'par' })] }]);
    await expect(client(fx.url, { retry: { maxAttempts: 1 } }).llm.chat({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toThrow(/stream ended before the reply was complete/);
  });

  it('drops stream_options once for a server that rejects it, and reads a plain JSON reply', async () => {
    const fx = await startFixture([
      { status: 400, json: { error: { message: "Unrecognized request argument supplied: stream_options" } } },
      { status: 200, json: { choices: [{ index: 0, message: { role: 'assistant', content: 'plain' }, finish_reason: 'length' }], usage: { prompt_tokens: 5, completion_tokens: 2 } } },
    ]);
    const res = await client(fx.url).llm.chat({ messages: [{ role: 'user', content: 'hi' }] });
    expect(fx.requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(fx.requests[1]!.body.stream_options).toBeUndefined();
    expect(res).toMatchObject({ stopReason: 'length', usage: { input: 5, output: 2, totalTokens: 7 } });
    expect(res.message.content).toEqual([{ type: 'text', text: 'plain' }]);
  });

  it('says the server is not reachable after retrying a refused connection', async () => {
    const fx = await startFixture([]);
    await fx.close();
    const { llm, delays } = client(fx.url, { retry: { maxAttempts: 2 } });
    const err = await llm.chat({ messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmHttpError);
    expect((err as Error).message).toMatch(/could not connect \(ECONNREFUSED\).*is the server running/);
    expect(delays).toHaveLength(1);
  });

  it('adds a missing tool result for an interrupted call and drops an orphan result (sent copy only)', async () => {
    const fx = await startFixture([{ sse: [chunk({ content: 'ok' }), chunk({}, 'stop'), data('[DONE]')] }]);
    const history: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'toolCall', id: 'c9', name: 'read', arguments: {} }] },
      { role: 'user', content: 'again' },
      { role: 'toolResult', toolCallId: 'gone', toolName: 'read', content: [{ type: 'text', text: 'x' }], isError: false },
    ];
    await client(fx.url, { baseUrl: `${fx.url}/v1/` }).llm.chat({ messages: history });
    expect(fx.requests[0]!.url).toBe('/v1/chat/completions');
    const msgs = fx.requests[0]!.body.messages as { role: string }[];
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(history).toHaveLength(4);
  });

  describe('context window probe (local servers)', () => {
    const nf = { status: 404, json: { error: 'not found' } };
    it('reads llama.cpp /props n_ctx', async () => {
      const fx = await startFixture([{ status: 200, json: { default_generation_settings: { n_ctx: 8192 }, total_slots: 1 } }]);
      const { llm } = client(fx.url);
      expect(llm.contextWindow).toBeUndefined();
      await llm.load();
      expect(llm.contextWindow).toBe(8192);
      expect(fx.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /props']);
    });
    it('reads vLLM max_model_len from /v1/models', async () => {
      const fx = await startFixture([nf, { status: 200, json: { object: 'list', data: [{ id: 'other', max_model_len: 1 }, { id: 'qwen3:8b', object: 'model', max_model_len: 32768 }] } }]);
      const { llm } = client(fx.url);
      await llm.load();
      expect(llm.contextWindow).toBe(32768);
    });
    it("reads Ollama's num_ctx from /api/show, and probes only once when nothing answers", async () => {
      const fx = await startFixture([nf, { status: 200, json: { object: 'list', data: [{ id: 'qwen3:8b', object: 'model', owned_by: 'library' }] } }, nf, { status: 200, json: { parameters: 'stop "<|im_end|>"\nnum_ctx 16384', model_info: { 'qwen3.context_length': 40960 } } }]);
      const { llm } = client(fx.url);
      await llm.load();
      expect(llm.contextWindow).toBe(16384);
      expect(fx.requests.at(-1)).toMatchObject({ method: 'POST', url: '/api/show', body: { model: 'qwen3:8b' } });
      const fx2 = await startFixture([nf, nf, nf, nf]);
      const other = client(fx2.url).llm;
      await other.load();
      await other.load();
      expect(other.contextWindow).toBeUndefined();
      expect(fx2.requests).toHaveLength(4);
    });
    it('does not probe when the window is configured or the host is api.openai.com', async () => {
      const fx = await startFixture([]);
      const { llm } = client(fx.url, { contextWindow: 4096 });
      await llm.load();
      expect(llm.contextWindow).toBe(4096);
      expect(fx.requests).toHaveLength(0);
    });
  });
});
