/**
 * Deterministic LLMs for tests: they answer like a real model would — a summary written from
 * what the prompt contains, tool calls, overflow errors when a request exceeds their window —
 * through the same `LLM` interface the engine uses with real providers.
 */
import { ContextOverflowError, type ChatRequest, type ChatResult, type LLM } from '../../electron/engine/llm/types';
import type { AssistantMessage, ToolCallBlock } from '../../shared/types/messages';

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };

function promptText(req: ChatRequest): string {
  const parts = [req.system ?? ''];
  for (const m of req.messages) {
    if (typeof m.content === 'string') parts.push(m.content);
    else for (const b of m.content) if (b.type === 'text') parts.push(b.text);
  }
  return parts.join('\n');
}

function reply(content: AssistantMessage['content'], stop: ChatResult['stopReason'] = 'stop'): ChatResult {
  const message: AssistantMessage = { role: 'assistant', content, provider: 'test', model: 'test', usage, stopReason: stop, timestamp: Date.now() };
  return { message, usage, stopReason: stop };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    }, { once: true });
  });
}

/**
 * A summariser: writes the five headings, copying into "Exact identifiers" every path-like or
 * host:port string of the prompt, and says which parts it saw. Throws ContextOverflowError
 * when the request (chars / 4) exceeds `contextWindow`.
 */
export class SummarizerLLM implements LLM {
  readonly provider = 'test';
  readonly model = 'summarizer';
  readonly calls: ChatRequest[] = [];
  /** The window the model reports (by default the one it enforces). */
  readonly contextWindow: number | undefined;
  constructor(
    /** Requests larger than this (chars / 4) fail with ContextOverflowError. */
    readonly limit: number = 100_000,
    private readonly opts: { delayMs?: number; failWith?: (n: number, req: ChatRequest) => Error | undefined; reportedWindow?: number } = {},
  ) {
    this.contextWindow = 'reportedWindow' in opts ? opts.reportedWindow : limit;
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    this.calls.push(req);
    const text = promptText(req);
    const tokens = Math.ceil(text.length / 4);
    const failure = this.opts.failWith?.(this.calls.length, req);
    if (this.opts.delayMs) await sleep(this.opts.delayMs, req.signal);
    req.signal?.throwIfAborted();
    if (failure) throw failure;
    if (tokens > this.limit) throw new ContextOverflowError(`prompt is ${tokens} tokens; the model's window is ${this.limit}`);
    const ids = [...new Set(text.match(/(?:[\w.-]+\/)+[\w.-]+\.\w+|\b\d{1,3}(?:\.\d{1,3}){3}:\d+\b/g) ?? [])];
    const kind = text.includes('<partial-summary') ? 'merged' : text.includes('<conversation part=') ? 'part' : 'whole';
    const summary = [
      '## Decisions',
      `- (${kind} summary of ${text.length} prompt chars${text.includes('<previous-summary>') ? ', previous summary updated' : ''})`,
      '## Open TODOs',
      '- (none)',
      '## Constraints/Rules',
      '- (none)',
      '## Pending user asks',
      '- (none)',
      '## Exact identifiers',
      ...ids.map((i) => `- ${i}`),
    ].join('\n');
    return reply([{ type: 'text', text: summary }]);
  }
  async dispose(): Promise<void> {}
}

/** A model driven by a script: each call returns the next step (tool calls or text). */
export class ScriptedLLM implements LLM {
  readonly provider = 'test';
  readonly model = 'scripted';
  readonly contextWindow = 100_000;
  readonly calls: ChatRequest[] = [];
  constructor(private readonly steps: ((req: ChatRequest, n: number) => { text?: string; toolCalls?: Omit<ToolCallBlock, 'type'>[] })[]) {}

  async chat(req: ChatRequest): Promise<ChatResult> {
    this.calls.push(structuredClone({ ...req, signal: undefined, onEvent: undefined }));
    const step = this.steps[Math.min(this.calls.length - 1, this.steps.length - 1)];
    const out = step ? step(req, this.calls.length) : { text: 'NO_REPLY' };
    const content: AssistantMessage['content'] = [];
    if (out.text) content.push({ type: 'text', text: out.text });
    for (const c of out.toolCalls ?? []) content.push({ type: 'toolCall', ...c });
    return reply(content, out.toolCalls?.length ? 'toolUse' : 'stop');
  }
  async dispose(): Promise<void> {}
}
