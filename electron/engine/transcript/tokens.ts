/**
 * The token estimate of SPEC §2: ceil(chars / 4) over text, thinking, tool name + JSON
 * arguments; an image counts 4,800 chars; `toolResult.details` is never counted.
 */
import type { Message } from '../../../shared/types/messages';

export const CHARS_PER_TOKEN = 4;
export const IMAGE_CHARS = 4800;

/** Characters of one content block, as the estimate counts them. */
export function blockChars(block: unknown): number {
  if (typeof block !== 'object' || block === null) return 0;
  const b = block as { type?: unknown; text?: unknown; thinking?: unknown; name?: unknown; arguments?: unknown };
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string' ? b.text.length : 0;
    case 'thinking':
      return typeof b.thinking === 'string' ? b.thinking.length : 0;
    case 'toolCall':
      return (typeof b.name === 'string' ? b.name.length : 0) + (JSON.stringify(b.arguments ?? {})?.length ?? 0);
    case 'image':
      return IMAGE_CHARS;
    default:
      return 0;
  }
}

/** Characters of a message's content (string or blocks). */
export function contentChars(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const b of content) n += blockChars(b);
  return n;
}

/** Characters of a message as the estimate counts them (details excluded). */
export function messageChars(m: Message): number {
  return contentChars(m.content);
}

/** Estimated tokens of one message. */
export function estimateMessageTokens(m: Message): number {
  return Math.ceil(messageChars(m) / CHARS_PER_TOKEN);
}

/** Estimated tokens of a list of messages (sum of per-message estimates). */
export function estimateTokens(messages: readonly Message[]): number {
  let n = 0;
  for (const m of messages) n += estimateMessageTokens(m);
  return n;
}

/** Estimated tokens of plain text (system prompts, summaries). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
