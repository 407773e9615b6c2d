/** Channels and events of the assistant turn loop (chat pane, `cairn chat`). */
import { z } from 'zod';
import { ch, ev } from './define';
import type { ChatEventPayload, ChatSendResult, ChatSessionInfo } from '../types/chat';

export type * from '../types/chat';

const AgentId = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_"')
  .max(100);
/** A session id names a file: no separators. */
const SessionId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'letters, digits, ".", ":", "-" and "_"')
  .max(200);

export const chatChannels = {
  /**
   * One user turn: appends the message, runs the model (tools, pruning, flush, compaction)
   * and returns the reply; steps stream as `chat.event` with this call's opId; cancel with
   * `op.cancel`. `/compact [instructions]` (or `/compact --all`) compacts instead. No
   * sessionId = a new session. `unavailable` when no model is configured.
   */
  'chat.send': ch(z.object({ sessionId: SessionId.optional(), text: z.string().min(1).max(1_000_000), agentId: AgentId.optional() })).returns<ChatSendResult>(),
  /** Create an empty session (header only) and register it in sessions.json. */
  'chat.newSession': ch(z.object({ agentId: AgentId.optional() })).returns<ChatSessionInfo>(),
};

export const chatEvents = {
  'chat.event': ev<ChatEventPayload>(),
};
