/**
 * Serialising old messages for the summariser (SPEC §4): plain labelled text, so the model
 * reads a transcript instead of continuing a conversation. Tool results are cut at 2,000 chars.
 */
import type { Message } from '../../../shared/types/messages';
import { contentText } from '../../../shared/text/content';

export const TOOL_RESULT_MAX_CHARS = 2000;

const texts = (content: unknown): string => contentText(content);

/** Cut `text` to `max` chars, saying how much was left out. */
export function truncateNoted(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[... ${text.length - max} more characters truncated]`;
}

/** One message as summariser text ('' when it has nothing to say). */
export function serializeMessage(m: Message, maxToolResultChars = TOOL_RESULT_MAX_CHARS): string {
  if (m.role === 'user') {
    const t = texts(m.content);
    const images = Array.isArray(m.content) ? m.content.filter((b) => b.type === 'image').length : 0;
    const note = images ? `${t ? ' ' : ''}[${images} image${images > 1 ? 's' : ''}]` : '';
    return t || note ? `[User]: ${t}${note}` : '';
  }
  if (m.role === 'assistant') {
    const text: string[] = [];
    const calls: string[] = [];
    for (const b of Array.isArray(m.content) ? m.content : []) {
      if (b.type === 'text' && b.text) text.push(b.text);
      else if (b.type === 'toolCall') calls.push(`${b.name}(${JSON.stringify(b.arguments ?? {})})`);
    }
    const parts: string[] = [];
    if (text.length) parts.push(`[Assistant]: ${text.join('\n')}`);
    if (calls.length) parts.push(`[Assistant tool calls]: ${calls.join('; ')}`);
    return parts.join('\n');
  }
  const t = texts(m.content);
  const images = Array.isArray(m.content) ? m.content.filter((b) => b?.type === 'image').length : 0;
  const body = `${truncateNoted(t, maxToolResultChars)}${images ? `${t ? ' ' : ''}[${images} image${images > 1 ? 's' : ''}]` : ''}`;
  return body ? `[Tool result]: ${body}` : '';
}

/** The note that replaces a message too large to summarise (SPEC §4 fallback). */
export function omittedNote(m: Message, tokens: number): string {
  return `[Large ${m.role} (~${Math.max(1, Math.round(tokens / 1000))}K tokens) omitted from summary]`;
}
