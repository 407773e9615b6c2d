/**
 * A deterministic LLM for turn-loop tests: each call is answered by a handler that sees the
 * request (system, messages, tools) and returns text and/or tool calls the way a provider
 * would — streaming deltas through onEvent, usage, stop reason. Every request is recorded
 * (a deep copy, so later mutation cannot hide what the model was sent).
 */
import type { AssistantMessage, ToolCallBlock, Usage } from '../../shared/types/messages';
import type { ChatRequest, ChatResult, LLM } from '../../electron/engine/llm/types';

export interface Reply {
  text?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown>; id?: string }[];
  usage?: Partial<Usage>;
}

export type Handler = (req: ChatRequest, call: number) => Reply | Promise<Reply>;

export class ScriptedLlm implements LLM {
  readonly provider = 'scripted';
  readonly model = 'script-1';
  readonly requests: ChatRequest[] = [];
  disposed = false;
  private n = 0;

  constructor(
    private readonly handler: Handler,
    readonly contextWindow: number | undefined = 100_000,
  ) {}

  /** A model that answers call n with `steps[n]`, repeating the last step once they run out. */
  static steps(...steps: ((req: ChatRequest) => Reply | Promise<Reply>)[]): ScriptedLlm {
    if (!steps.length) throw new Error('ScriptedLlm.steps needs at least one step');
    return new ScriptedLlm((req, call) => (steps[Math.min(call, steps.length - 1)] as (typeof steps)[number])(req));
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const call = this.n++;
    this.requests.push(structuredClone({ ...req, signal: undefined, onEvent: undefined }));
    const r = await this.handler(req, call);
    req.signal?.throwIfAborted();
    const content: AssistantMessage['content'] = [];
    if (r.text) {
      // Stream in two pieces, as a provider would.
      const half = Math.ceil(r.text.length / 2);
      req.onEvent?.({ type: 'text', delta: r.text.slice(0, half) });
      if (r.text.length > half) req.onEvent?.({ type: 'text', delta: r.text.slice(half) });
      content.push({ type: 'text', text: r.text });
    }
    (r.toolCalls ?? []).forEach((t, i) => {
      const block: ToolCallBlock = { type: 'toolCall', id: t.id ?? `call_${call}_${i}`, name: t.name, arguments: t.arguments };
      content.push(block);
      req.onEvent?.({ type: 'toolCall', id: block.id, name: block.name, arguments: block.arguments });
    });
    const usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, ...r.usage };
    const stopReason = r.toolCalls?.length ? 'toolUse' : 'stop';
    return { message: { role: 'assistant', content, provider: this.provider, model: this.model, usage, stopReason }, usage, stopReason };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

/** True for the compaction summariser's requests (its system prompt asks for a summary). */
export const isSummaryRequest = (req: ChatRequest): boolean => /summar/i.test(req.system ?? '') && !req.tools?.length;
/** True for the memory flush turn's requests. */
export const isFlushRequest = (req: ChatRequest): boolean => /Session nearing compaction/.test(req.system ?? '');
