/**
 * Anthropic Messages client: `POST {baseUrl}/v1/messages` with tools, SSE streaming and
 * prompt caching (`cache_control: ephemeral` on the system prompt and the last user turn;
 * cache reads/writes reported as usage.cacheRead/cacheWrite). Stream events handled:
 * message_start, content_block_start/delta/stop (text, input_json, thinking, signature),
 * message_delta (stop_reason, usage), message_stop, ping and error.
 */
import type { AssistantMessage, TextBlock, ThinkingBlock, ToolCallBlock, Usage } from '../../../shared/types/messages';
import type { ChatRequest, ChatResult, LLM } from './types';
import { abortError, LlmHttpError, streamError, type ErrorContext } from './errors';
import { postJson, type HttpDeps, type RetryPolicy } from './http';
import { readSse } from './sse';
import { mapStopReason, toAnthropicMessages, toAnthropicTools } from './anthropic-convert';
import { parseArguments } from './openai-convert';
import { apiUrl } from './openai';

/** The `anthropic-version` header value. */
export const ANTHROPIC_VERSION = '2023-06-01';
/** Used when `cairn.llm.baseUrl` is not set. */
export const DEFAULT_ANTHROPIC_URL = 'https://api.anthropic.com';

/** Settings of the Anthropic client (the factory fills them from `cairn.llm`). */
export interface AnthropicOptions {
  baseUrl?: string;
  model: string;
  apiKey?: string | undefined;
  keyHint?: string;
  contextWindow?: number | undefined;
  /** Required by the API; default 4096. */
  maxOutputTokens?: number | undefined;
  /** Prompt caching on the system prompt and last user turn; default on. */
  promptCaching?: boolean;
  headers?: Record<string, string>;
  retry?: Partial<RetryPolicy>;
  deps?: HttpDeps;
  /** A stream silent for this long fails (default 10 min: local models can think long before the first token). */
  idleTimeoutMs?: number;
}

type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; thinking: string; signature: string; redacted: boolean }
  | { kind: 'tool'; id: string; name: string; json: string };

interface AUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The Anthropic Messages API behind the `LLM` interface (streaming, tools, prompt caching). */
export class AnthropicLlm implements LLM {
  readonly provider = 'anthropic';
  readonly model: string;
  readonly contextWindow: number | undefined;
  private readonly baseUrl: string;
  private readonly errorContext: ErrorContext;

  constructor(private readonly opts: AnthropicOptions) {
    this.model = opts.model;
    this.baseUrl = opts.baseUrl ?? DEFAULT_ANTHROPIC_URL;
    // Every current Claude model has a 200k window (1M needs a beta header we do not send).
    this.contextWindow = opts.contextWindow ?? (/^claude/.test(opts.model) ? 200_000 : undefined);
    this.errorContext = {
      what: `Anthropic API at ${this.baseUrl}`,
      keyHint: opts.keyHint ?? 'check the API key (cairn.llm.apiKey or ANTHROPIC_API_KEY)',
    };
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const cache = this.opts.promptCaching ?? true;
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: req.maxTokens ?? this.opts.maxOutputTokens ?? 4096,
      messages: toAnthropicMessages(req.messages, { cache }),
      stream: true,
    };
    if (req.system) body.system = [{ type: 'text', text: req.system, ...(cache ? { cache_control: { type: 'ephemeral' } } : {}) }];
    const tools = toAnthropicTools(req.tools);
    if (tools) body.tools = tools;
    if (req.temperature !== undefined) body.temperature = req.temperature;
    const headers: Record<string, string> = { accept: 'text/event-stream', 'anthropic-version': ANTHROPIC_VERSION, ...this.opts.headers };
    if (this.opts.apiKey) headers['x-api-key'] = this.opts.apiKey;
    const res = await postJson({
      url: apiUrl(this.baseUrl, 'messages'),
      headers,
      body,
      signal: req.signal,
      retry: this.opts.retry,
      deps: this.opts.deps,
      errorContext: this.errorContext,
    });
    if (!res.body) throw new LlmHttpError(`${this.errorContext.what}: empty response body`, res.status, true);
    return this.fromStream(res.body, req);
  }

  private async fromStream(stream: ReadableStream<Uint8Array>, req: ChatRequest): Promise<ChatResult> {
    const blocks = new Map<number, Block>();
    const usage: AUsage = {};
    let stopReason: string | null | undefined;
    let stopped = false;
    for await (const ev of readSse(stream, req.signal, this.opts.idleTimeoutMs)) {
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(ev.data) as Record<string, unknown>;
      } catch {
        continue;
      }
      const type = (data.type as string | undefined) ?? ev.event;
      if (type === 'error') throw streamError(data, this.errorContext);
      if (type === 'message_start') {
        Object.assign(usage, ((data.message as Record<string, unknown> | undefined)?.usage ?? {}) as AUsage);
      } else if (type === 'content_block_start') {
        const cb = (data.content_block ?? {}) as Record<string, unknown>;
        const index = data.index as number;
        if (cb.type === 'text') blocks.set(index, { kind: 'text', text: String(cb.text ?? '') });
        else if (cb.type === 'thinking') blocks.set(index, { kind: 'thinking', thinking: String(cb.thinking ?? ''), signature: '', redacted: false });
        else if (cb.type === 'redacted_thinking') blocks.set(index, { kind: 'thinking', thinking: '', signature: String(cb.data ?? ''), redacted: true });
        else if (cb.type === 'tool_use') blocks.set(index, { kind: 'tool', id: String(cb.id ?? ''), name: String(cb.name ?? ''), json: '' });
      } else if (type === 'content_block_delta') {
        const b = blocks.get(data.index as number);
        const d = (data.delta ?? {}) as Record<string, string>;
        if (!b) continue;
        if (d.type === 'text_delta' && b.kind === 'text') {
          b.text += d.text ?? '';
          req.onEvent?.({ type: 'text', delta: d.text ?? '' });
        } else if (d.type === 'thinking_delta' && b.kind === 'thinking') {
          b.thinking += d.thinking ?? '';
          req.onEvent?.({ type: 'thinking', delta: d.thinking ?? '' });
        } else if (d.type === 'signature_delta' && b.kind === 'thinking') {
          b.signature += d.signature ?? '';
        } else if (d.type === 'input_json_delta' && b.kind === 'tool') {
          b.json += d.partial_json ?? '';
        }
      } else if (type === 'content_block_stop') {
        const b = blocks.get(data.index as number);
        if (b?.kind === 'tool') req.onEvent?.({ type: 'toolCall', id: b.id, name: b.name, arguments: parseArguments(b.json) });
      } else if (type === 'message_delta') {
        const d = (data.delta ?? {}) as Record<string, unknown>;
        if (d.stop_reason !== undefined) stopReason = d.stop_reason as string | null;
        // message_delta usage is cumulative: it overrides what message_start said.
        for (const [k, v] of Object.entries((data.usage ?? {}) as AUsage)) if (typeof v === 'number') (usage as Record<string, number>)[k] = v;
      } else if (type === 'message_stop') {
        stopped = true;
        break;
      }
    }
    if (req.signal?.aborted) throw abortError(req.signal);
    if (!stopped && stopReason === undefined) throw new LlmHttpError(`${this.errorContext.what}: the stream ended before the reply was complete`, undefined, true);
    return this.result(blocks, usage, stopReason);
  }

  private result(blocks: Map<number, Block>, u: AUsage, reason: string | null | undefined): ChatResult {
    const content: (TextBlock | ThinkingBlock | ToolCallBlock)[] = [];
    for (const [, b] of [...blocks.entries()].sort((a, c) => a[0] - c[0])) {
      if (b.kind === 'text') {
        if (b.text) content.push({ type: 'text', text: b.text });
      } else if (b.kind === 'thinking') {
        const t: ThinkingBlock = { type: 'thinking', thinking: b.redacted ? '[Reasoning redacted]' : b.thinking };
        if (b.signature) t.thinkingSignature = b.signature;
        if (b.redacted) t.redacted = true;
        content.push(t);
      } else {
        content.push({ type: 'toolCall', id: b.id, name: b.name, arguments: parseArguments(b.json) });
      }
    }
    const usage: Usage = {
      input: u.input_tokens ?? 0,
      output: u.output_tokens ?? 0,
      cacheRead: u.cache_read_input_tokens ?? 0,
      cacheWrite: u.cache_creation_input_tokens ?? 0,
      totalTokens: 0,
    };
    usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    const stopReason = mapStopReason(reason);
    const message: AssistantMessage = { role: 'assistant', content, provider: this.provider, model: this.model, usage, stopReason, timestamp: Date.now() };
    return { message, usage, stopReason };
  }

  async dispose(): Promise<void> {
    // Stateless over HTTP: nothing to release.
  }
}
