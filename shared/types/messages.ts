/**
 * Message and content-block types of a transcript (SPEC §1.1, pi session format v3). The
 * LLM interface speaks these too, so what is on disk is what a provider is sent.
 */

export interface TextBlock {
  type: 'text';
  text: string;
}
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  [extra: string]: unknown;
}
export interface ToolCallBlock {
  type: 'toolCall';
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}
export interface ImageBlock {
  type: 'image';
  /** base64 */
  data: string;
  mimeType: string;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  [extra: string]: unknown;
}

export interface UserMessage {
  role: 'user';
  content: string | (TextBlock | ImageBlock)[];
  timestamp?: number | string;
  [extra: string]: unknown;
}

export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

export interface AssistantMessage {
  role: 'assistant';
  content: (TextBlock | ThinkingBlock | ToolCallBlock)[];
  provider?: string;
  model?: string;
  usage?: Usage;
  stopReason?: StopReason | string;
  timestamp?: number | string;
  [extra: string]: unknown;
}

export interface ToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: (TextBlock | ImageBlock)[];
  /** Never counted, never sent to a model. */
  details?: unknown;
  isError: boolean;
  timestamp?: number | string;
  [extra: string]: unknown;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;
