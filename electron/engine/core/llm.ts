/**
 * The one LLM interface: chat with tools, streaming, abort and usage. Implemented by the
 * node-llama-cpp, OpenAI-compatible and Anthropic providers, and by deterministic test models.
 * On the ground floor because the engine context names it (its `createLlm` dependency);
 * llm/types.ts re-exports it with the providers' errors.
 */
import type { AssistantMessage, Message, StopReason, Usage } from '../../../shared/types/messages';

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export type StreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'thinking'; delta: string }
  | { type: 'toolCall'; id: string; name: string; arguments: Record<string, unknown> };

export interface ChatRequest {
  system?: string;
  messages: Message[];
  tools?: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  /** Streaming: called for each delta as it arrives. */
  onEvent?: (event: StreamEvent) => void;
}

export interface ChatResult {
  message: AssistantMessage;
  usage: Usage;
  stopReason: StopReason;
}

export interface LLM {
  readonly provider: string;
  readonly model: string;
  /** The model's context window in tokens, when known. */
  readonly contextWindow: number | undefined;
  chat(request: ChatRequest): Promise<ChatResult>;
  /** Exact token count with the model's tokenizer, where one is loaded. */
  countTokens?(text: string): Promise<number>;
  /**
   * Load the model (a local one learns its context window only then), where loading is a
   * step of its own; the chat loop calls it before its first threshold check.
   */
  load?(signal?: AbortSignal): Promise<unknown>;
  dispose(): Promise<void>;
}
