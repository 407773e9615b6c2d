/**
 * Our transcript messages ↔ OpenAI chat-completions messages. toolCall blocks become
 * `tool_calls`, toolResult messages become role "tool", images become `image_url` data URIs
 * (tool-result images follow as a user message: role "tool" takes text only), thinking is
 * dropped unless the server reads it back (`reasoning_content`).
 */
import type { Message, StopReason } from '../../../shared/types/messages';
import type { ToolSpec } from './types';
import { repairToolPairs, textOf } from './tool-pairs';
import { contentText } from '../../../shared/text/content';

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** One message of a chat-completions request. */
export type OaiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | Part[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
      reasoning_content?: string;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** One function tool of a chat-completions request. */
export interface OaiTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

function dataUri(mimeType: string, data: string): string {
  return `data:${mimeType};base64,${data}`;
}

/** Convert a system prompt + messages to the `messages` array of a chat-completions request. */
export function toOpenAiMessages(system: string | undefined, messages: Message[], opts: { sendThinking?: boolean } = {}): OaiMessage[] {
  const out: OaiMessage[] = [];
  if (system) out.push({ role: 'system', content: system });
  for (const m of repairToolPairs(messages)) {
    if (m.role === 'user') {
      if (typeof m.content === 'string') {
        out.push({ role: 'user', content: m.content });
      } else if (m.content.every((b) => b.type === 'text')) {
        // Plain strings work on every server; some local ones reject part arrays.
        out.push({ role: 'user', content: textOf(m.content) });
      } else {
        out.push({
          role: 'user',
          content: m.content.map((b): Part => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'image_url', image_url: { url: dataUri(b.mimeType, b.data) } })),
        });
      }
    } else if (m.role === 'assistant') {
      const text = contentText(m.content, { sep: '' });
      const calls = m.content.flatMap((b) =>
        b.type === 'toolCall' ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.arguments ?? {}) } }] : [],
      );
      const thinking = m.content.filter((b) => b.type === 'thinking').map((b) => (b as { thinking: string }).thinking).join('');
      if (!text && calls.length === 0) continue; // an empty (aborted) reply: servers reject it
      const msg: OaiMessage = { role: 'assistant', content: text || null };
      if (calls.length) msg.tool_calls = calls;
      if (opts.sendThinking && thinking) msg.reasoning_content = thinking;
      out.push(msg);
    } else {
      out.push({ role: 'tool', tool_call_id: m.toolCallId, content: textOf(m.content) || (m.content.length ? '(see image below)' : '') });
      const images = m.content.filter((b) => b.type === 'image');
      if (images.length) {
        out.push({
          role: 'user',
          content: [
            { type: 'text', text: `Image(s) returned by the tool ${m.toolName}:` },
            ...images.map((b): Part => ({ type: 'image_url', image_url: { url: dataUri((b as { mimeType: string }).mimeType, (b as { data: string }).data) } })),
          ],
        });
      }
    }
  }
  return out;
}

/** Our tool specs → chat-completions `tools`. */
export function toOpenAiTools(tools: ToolSpec[] | undefined): OaiTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** finish_reason → our StopReason. */
export function mapFinishReason(reason: string | null | undefined, hasToolCalls: boolean): StopReason {
  if (hasToolCalls) return 'toolUse';
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'toolUse';
    case 'content_filter':
      return 'error';
    default:
      return 'stop';
  }
}

/** Parse a tool call's accumulated arguments; invalid JSON is kept raw so the tool can say so. */
export function parseArguments(raw: string): Record<string, unknown> {
  if (!raw.trim()) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { _invalidJson: raw };
  }
}
