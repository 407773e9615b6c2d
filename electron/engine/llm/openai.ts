/**
 * OpenAI-compatible chat client: `POST {baseUrl}/v1/chat/completions` with tools and SSE
 * streaming. One client covers OpenAI, Ollama, LM Studio, llama.cpp server and vLLM: it reads
 * `reasoning_content`/`reasoning` deltas, assembles streamed tool-call deltas by index, asks
 * for usage with `stream_options.include_usage` (and drops that option once for a server that
 * rejects it), and accepts a plain JSON reply from a server that ignores `stream`.
 */
import type { AssistantMessage, TextBlock, ThinkingBlock, ToolCallBlock, Usage } from '../../../shared/types/messages';
import type { ChatRequest, ChatResult, LLM } from './types';
import { abortError, LlmHttpError, streamError, type ErrorContext } from './errors';
import { postJson, type HttpDeps, type RetryPolicy } from './http';
import { readSse } from './sse';
import { mapFinishReason, parseArguments, toOpenAiMessages, toOpenAiTools } from './openai-convert';
import { probeContextWindow } from './openai-probe';

/** Settings of the OpenAI-compatible client (the factory fills them from `cairn.llm`). */
export interface OpenAiOptions {
  /** Server root, with or without a trailing `/v1` (e.g. `http://127.0.0.1:11434`). */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  /** How to fix a 401, e.g. "set cairn.llm.apiKey or OPENAI_API_KEY". */
  keyHint?: string;
  /** Label in transcripts (`provider` of assistant messages). */
  provider?: string;
  contextWindow?: number | undefined;
  maxOutputTokens?: number | undefined;
  headers?: Record<string, string>;
  /** Send thinking back as `reasoning_content` (DeepSeek-style servers). Default off. */
  sendThinking?: boolean;
  retry?: Partial<RetryPolicy>;
  deps?: HttpDeps;
  /** A stream silent for this long fails (default 10 min: local models can think long before the first token). */
  idleTimeoutMs?: number;
}

/** `{baseUrl}/v1/<path>` without doubling a `/v1` the user already wrote. */
export function apiUrl(baseUrl: string, path: string): string {
  const root = baseUrl.replace(/\/+$/, '');
  return root.endsWith('/v1') ? `${root}/${path}` : `${root}/v1/${path}`;
}

/** Context windows of well-known hosted models (prefix match); local servers are configured. */
const KNOWN_WINDOWS: [RegExp, number][] = [
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-5/, 400_000],
  [/^gpt-4o/, 128_000],
  [/^o[134]/, 200_000],
  [/^gpt-4-turbo/, 128_000],
];

interface PartialCall {
  id: string;
  name: string;
  args: string;
}

interface OaiUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
}

/** Chat-completions usage → ours (cached prompt tokens are cacheRead, not input). */
export function usageFrom(u: OaiUsage | undefined): Usage {
  const cached = u?.prompt_tokens_details?.cached_tokens ?? 0;
  const input = Math.max(0, (u?.prompt_tokens ?? 0) - cached);
  const output = u?.completion_tokens ?? 0;
  return { input, output, cacheRead: cached, cacheWrite: 0, totalTokens: input + output + cached };
}

/** Any OpenAI-compatible chat-completions server behind the `LLM` interface. */
export class OpenAiCompatibleLlm implements LLM {
  readonly provider: string;
  readonly model: string;
  contextWindow: number | undefined;
  private readonly errorContext: ErrorContext;
  private includeUsage = true;
  private probed: Promise<void> | undefined;

  constructor(private readonly opts: OpenAiOptions) {
    this.provider = opts.provider ?? 'openai';
    this.model = opts.model;
    this.contextWindow = opts.contextWindow ?? KNOWN_WINDOWS.find(([re]) => re.test(opts.model))?.[1];
    this.errorContext = {
      what: `OpenAI-compatible server at ${opts.baseUrl}`,
      keyHint: opts.keyHint ?? 'check the API key (cairn.llm.apiKey or OPENAI_API_KEY)',
    };
  }

  private headers(): Record<string, string> {
    const h: Record<string, string> = { accept: 'text/event-stream', ...this.opts.headers };
    if (this.opts.apiKey) h.authorization = `Bearer ${this.opts.apiKey}`;
    return h;
  }

  private body(req: ChatRequest): Record<string, unknown> {
    const maxTokens = req.maxTokens ?? this.opts.maxOutputTokens;
    const body: Record<string, unknown> = {
      model: this.model,
      messages: toOpenAiMessages(req.system, req.messages, { sendThinking: this.opts.sendThinking ?? false }),
      stream: true,
    };
    if (this.includeUsage) body.stream_options = { include_usage: true };
    const tools = toOpenAiTools(req.tools);
    if (tools) body.tools = tools;
    // api.openai.com deprecated max_tokens (reasoning models refuse it); everyone else reads max_tokens.
    if (maxTokens) body[/api\.openai\.com/.test(this.opts.baseUrl) ? 'max_completion_tokens' : 'max_tokens'] = maxTokens;
    if (req.temperature !== undefined) body.temperature = req.temperature;
    return body;
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    let res: Response;
    try {
      res = await this.post(req);
    } catch (err) {
      // Some older servers reject stream_options; retry once without it (usage is then estimated).
      if (err instanceof LlmHttpError && err.status === 400 && this.includeUsage && /stream_options/i.test(err.message)) {
        this.includeUsage = false;
        res = await this.post(req);
      } else throw err;
    }
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('application/json')) return this.fromJson((await res.json()) as Record<string, unknown>, req);
    if (!res.body) throw new LlmHttpError(`${this.errorContext.what}: empty response body`, res.status, true);
    return this.fromStream(res.body, req);
  }

  private post(req: ChatRequest): Promise<Response> {
    return postJson({
      url: apiUrl(this.opts.baseUrl, 'chat/completions'),
      headers: this.headers(),
      body: this.body(req),
      signal: req.signal,
      retry: this.opts.retry,
      deps: this.opts.deps,
      errorContext: this.errorContext,
    });
  }

  private async fromStream(body: ReadableStream<Uint8Array>, req: ChatRequest): Promise<ChatResult> {
    let text = '';
    let thinking = '';
    const calls = new Map<number, PartialCall>();
    let finish: string | null | undefined;
    let usage: OaiUsage | undefined;
    let done = false;
    for await (const ev of readSse(body, req.signal, this.opts.idleTimeoutMs)) {
      if (ev.data === '[DONE]') {
        done = true;
        break;
      }
      let chunk: Record<string, unknown>;
      try {
        chunk = JSON.parse(ev.data) as Record<string, unknown>;
      } catch {
        continue; // keep-alive noise from some proxies
      }
      if (chunk.error) throw streamError(chunk, this.errorContext);
      if (chunk.usage) usage = chunk.usage as OaiUsage;
      const choices = (chunk.choices as Record<string, unknown>[] | undefined) ?? [];
      const choice = choices[0];
      if (!choice) continue;
      const delta = (choice.delta ?? {}) as Record<string, unknown>;
      if (typeof delta.content === 'string' && delta.content) {
        text += delta.content;
        req.onEvent?.({ type: 'text', delta: delta.content });
      }
      const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : '';
      if (reasoning) {
        thinking += reasoning;
        req.onEvent?.({ type: 'thinking', delta: reasoning });
      }
      for (const tc of (delta.tool_calls as Record<string, unknown>[] | undefined) ?? []) {
        const index = typeof tc.index === 'number' ? tc.index : calls.size;
        const fn = (tc.function ?? {}) as { name?: string; arguments?: string };
        let call = calls.get(index);
        if (!call) calls.set(index, (call = { id: '', name: '', args: '' }));
        if (typeof tc.id === 'string' && tc.id) call.id = tc.id;
        if (fn.name) call.name += call.name && call.name === fn.name ? '' : fn.name;
        if (fn.arguments) call.args += fn.arguments;
      }
      if (choice.finish_reason) finish = choice.finish_reason as string;
    }
    if (req.signal?.aborted) throw abortError(req.signal);
    if (!done && !finish) throw new LlmHttpError(`${this.errorContext.what}: the stream ended before the reply was complete`, undefined, true);
    return this.result(text, thinking, [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c), finish, usage, req);
  }

  private fromJson(json: Record<string, unknown>, req: ChatRequest): ChatResult {
    if (json.error) throw streamError(json, this.errorContext);
    const choice = ((json.choices as Record<string, unknown>[] | undefined) ?? [])[0] ?? {};
    const msg = (choice.message ?? {}) as Record<string, unknown>;
    const text = typeof msg.content === 'string' ? msg.content : '';
    const thinking = typeof msg.reasoning_content === 'string' ? msg.reasoning_content : '';
    if (text) req.onEvent?.({ type: 'text', delta: text });
    const calls = ((msg.tool_calls as Record<string, unknown>[] | undefined) ?? []).map((tc) => {
      const fn = (tc.function ?? {}) as { name?: string; arguments?: string };
      return { id: String(tc.id ?? ''), name: fn.name ?? '', args: fn.arguments ?? '' };
    });
    return this.result(text, thinking, calls, choice.finish_reason as string | undefined, json.usage as OaiUsage | undefined, req);
  }

  private result(text: string, thinking: string, calls: PartialCall[], finish: string | null | undefined, u: OaiUsage | undefined, req: ChatRequest): ChatResult {
    const content: (TextBlock | ThinkingBlock | ToolCallBlock)[] = [];
    if (thinking) content.push({ type: 'thinking', thinking });
    if (text) content.push({ type: 'text', text });
    calls.forEach((c, i) => {
      // Some servers (older Ollama) send no id; the result must still pair with the call.
      const block: ToolCallBlock = { type: 'toolCall', id: c.id || `call_${Date.now().toString(36)}_${i}`, name: c.name, arguments: parseArguments(c.args) };
      content.push(block);
      req.onEvent?.({ type: 'toolCall', id: block.id, name: block.name, arguments: block.arguments });
    });
    const usage = usageFrom(u);
    const stopReason = mapFinishReason(finish, calls.length > 0);
    const message: AssistantMessage = { role: 'assistant', content, provider: this.provider, model: this.model, usage, stopReason, timestamp: Date.now() };
    return { message, usage, stopReason };
  }

  /**
   * Learn the server's context window when it was not configured (local servers; see
   * openai-probe.ts). Called by the turn loop before its first call; best effort, once.
   */
  load(signal?: AbortSignal): Promise<void> {
    if (this.contextWindow !== undefined || /api\.openai\.com/.test(this.opts.baseUrl)) return Promise.resolve();
    this.probed ??= probeContextWindow(this.opts.baseUrl, this.model, {
      ...(signal ? { signal } : {}),
      ...(this.opts.deps?.fetch ? { fetch: this.opts.deps.fetch } : {}),
      headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
    }).then((n) => {
      // Unknown stays unknown for this instance: no re-probing on every turn.
      if (n !== undefined && this.contextWindow === undefined) this.contextWindow = n;
    });
    return this.probed;
  }

  async dispose(): Promise<void> {
    // Stateless over HTTP: nothing to release.
  }
}
