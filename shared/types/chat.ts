/** Chat (assistant turn loop) types shared with the renderer and the CLI (no Node imports). */
import type { StopReason, Usage } from './messages';

/** One streamed step of a turn, in order. */
export type ChatEvent =
  | { kind: 'turnStart'; userEntryId: string }
  | { kind: 'text'; delta: string }
  | { kind: 'thinking'; delta: string }
  | { kind: 'toolCall'; id: string; name: string; arguments: Record<string, unknown> }
  | { kind: 'toolResult'; id: string; name: string; isError: boolean; /** The start of the result text. */ preview: string }
  /** Pruning changed what the model was sent (the file is untouched). */
  | { kind: 'pruning'; softTrimmed: number; cleared: number; charsSaved: number; ratioBefore: number; ratioAfter: number }
  /**
   * The memory flush turn ran (or was considered and skipped, with why). `warning`: it failed
   * (the model, or today's note could not be written — named); the turn went on and the flush
   * runs again at the next turn.
   */
  | { kind: 'flush'; ran: boolean; reason: string; wrote: string[]; warning?: string }
  | { kind: 'compaction'; trigger: 'threshold' | 'preflight' | 'overflow' | 'manual'; compacted: boolean; reason?: string; tokensBefore?: number; tokensAfter?: number; extract?: boolean; entryId?: string }
  /** A model call failed with a context overflow; the turn compacted and retries once. */
  | { kind: 'retry'; reason: string }
  /** One model reply finished (a turn may have several, one per tool round). */
  | { kind: 'assistant'; entryId: string; stopReason: StopReason | string; usage: Usage }
  | { kind: 'done'; stopReason: StopReason | string };

export interface ChatEventPayload {
  opId?: string;
  sessionId: string;
  event: ChatEvent;
}

export interface ChatSendResult {
  sessionId: string;
  /** The final reply text ('' for a turn that only compacted). */
  reply: string;
  stopReason: StopReason | string;
  /** Model calls made in this turn (tool rounds + retries). */
  modelCalls: number;
  toolCalls: number;
  compactions: number;
  /** Usage of the last model call. */
  usage?: Usage;
}

export interface ChatSessionInfo {
  sessionId: string;
  agentId: string;
  /** Absolute path of the transcript. */
  file: string;
}
