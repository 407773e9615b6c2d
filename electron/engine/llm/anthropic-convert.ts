/**
 * Our transcript messages → Anthropic Messages API content. Tool results become
 * `tool_result` blocks in a user turn (consecutive same-role turns are merged, as the API
 * wants), thinking is sent back only with its signature, tool ids are made API-safe, and
 * `cache_control` marks the system prompt and the last user turn (prompt caching).
 */
import type { Message, StopReason } from '../../../shared/types/messages';
import type { ToolSpec } from './types';
import { repairToolPairs } from './tool-pairs';

type Cache = { cache_control?: { type: 'ephemeral' } };
/** One content block of the Messages API, optionally a cache breakpoint. */
export type AnthropicBlock = (
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: AnthropicBlock[]; is_error?: boolean }
) &
  Cache;

/** One turn of the Messages API (consecutive same-role turns are merged). */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

/** Anthropic accepts `^[a-zA-Z0-9_-]+$` ids only; other providers' ids may not match. */
export function safeToolId(id: string): string {
  const s = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return s.slice(0, 64) || 'tool';
}

function userBlocks(content: string | ({ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string })[]): AnthropicBlock[] {
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return content.flatMap((b): AnthropicBlock[] => {
    if (b.type === 'text') return b.text ? [{ type: 'text', text: b.text }] : [];
    return [{ type: 'image', source: { type: 'base64', media_type: b.mimeType, data: b.data } }];
  });
}

/** Convert messages; `cache` adds cache_control to the last block of the last user turn. */
export function toAnthropicMessages(messages: Message[], opts: { cache?: boolean } = {}): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  const push = (role: 'user' | 'assistant', content: AnthropicBlock[]) => {
    if (!content.length) return;
    const prev = out[out.length - 1];
    if (prev && prev.role === role) prev.content.push(...content);
    else out.push({ role, content });
  };
  for (const m of repairToolPairs(messages)) {
    if (m.role === 'user') push('user', userBlocks(m.content));
    else if (m.role === 'assistant') {
      const blocks: AnthropicBlock[] = [];
      for (const b of m.content) {
        if (b.type === 'text') {
          if (b.text) blocks.push({ type: 'text', text: b.text });
        } else if (b.type === 'thinking') {
          const sig = typeof b.thinkingSignature === 'string' ? b.thinkingSignature : undefined;
          // Without its signature the API rejects a thinking block; it is only context anyway.
          if (sig && b.redacted === true) blocks.push({ type: 'redacted_thinking', data: sig });
          else if (sig) blocks.push({ type: 'thinking', thinking: b.thinking, signature: sig });
        } else {
          blocks.push({ type: 'tool_use', id: safeToolId(b.id), name: b.name, input: b.arguments ?? {} });
        }
      }
      push('assistant', blocks);
    } else {
      const inner = userBlocks(m.content);
      push('user', [{ type: 'tool_result', tool_use_id: safeToolId(m.toolCallId), content: inner.length ? inner : [{ type: 'text', text: '(empty)' }], ...(m.isError ? { is_error: true } : {}) }]);
    }
  }
  if (opts.cache) {
    const lastUser = [...out].reverse().find((m) => m.role === 'user');
    const last = lastUser?.content[lastUser.content.length - 1];
    if (last) last.cache_control = { type: 'ephemeral' };
  }
  return out;
}

/** Our tool specs → the Messages API `tools` (JSON Schema as `input_schema`). */
export function toAnthropicTools(tools: ToolSpec[] | undefined): { name: string; description: string; input_schema: Record<string, unknown> }[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
}

/** stop_reason → our StopReason. */
export function mapStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'tool_use':
      return 'toolUse';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'error';
    default:
      return 'stop';
  }
}
