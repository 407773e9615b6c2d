/**
 * A deterministic summariser LLM for compaction tests: it answers like a real model would — a
 * summary written from what the prompt contains, overflow errors when a request exceeds its
 * window — through the same `LLM` interface the engine uses with real providers. (Turn-loop
 * tests that script replies call by call use ScriptedLlm in scripted-llm.ts.)
 */
import { ContextOverflowError, type ChatRequest, type ChatResult, type LLM } from '../../electron/engine/llm/types';
import type { AssistantMessage } from '../../shared/types/messages';

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

/** Settles only when `signal` aborts (rejecting with its reason), like a model still thinking. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    // Without a signal nothing could ever end the call: fail loudly instead of hanging the test.
    if (!signal) return reject(new Error('SummarizerLLM({ hold: true }) was called without an AbortSignal'));
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
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
  /**
   * Resolves with the first request once it has reached the model — what an abort test waits
   * on, so the abort provably lands during the model call and not before it.
   */
  readonly reached: Promise<ChatRequest>;
  private onReached: (req: ChatRequest) => void = () => {};
  constructor(
    /** Requests larger than this (chars / 4) fail with ContextOverflowError. */
    readonly limit: number = 100_000,
    private readonly opts: {
      /** Never answer: the call settles only when the request's signal aborts (abort tests). */
      hold?: boolean;
      failWith?: (n: number, req: ChatRequest) => Error | undefined;
      reportedWindow?: number;
    } = {},
  ) {
    this.contextWindow = 'reportedWindow' in opts ? opts.reportedWindow : limit;
    this.reached = new Promise((resolve) => (this.onReached = resolve));
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    this.calls.push(req);
    this.onReached(req);
    const text = promptText(req);
    const tokens = Math.ceil(text.length / 4);
    const failure = this.opts.failWith?.(this.calls.length, req);
    if (this.opts.hold) await untilAborted(req.signal);
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
