/**
 * Both APIs reject a history where a tool call has no result (or a result has no call): an
 * aborted turn or a hand-edited transcript can leave one. Before sending, every orphan call
 * gets a synthetic error result and every orphan result is dropped — in the copy sent to
 * the model only; the transcript is never changed.
 */
import type { Message, ToolResultMessage } from '../../../shared/types/messages';
import { contentText } from '../../../shared/text/content';

/** Text of the synthetic result for a call whose result is missing. */
export const MISSING_RESULT_TEXT = 'No result: the tool call was interrupted before it finished.';

/** Return `messages` with every tool call followed by exactly its results. */
export function repairToolPairs(messages: Message[]): Message[] {
  const out: Message[] = [];
  let pending: { id: string; name: string }[] = [];
  const flush = () => {
    for (const p of pending) {
      const synthetic: ToolResultMessage = {
        role: 'toolResult',
        toolCallId: p.id,
        toolName: p.name,
        content: [{ type: 'text', text: MISSING_RESULT_TEXT }],
        isError: true,
      };
      out.push(synthetic);
    }
    pending = [];
  };
  for (const m of messages) {
    if (m.role === 'toolResult') {
      const i = pending.findIndex((p) => p.id === m.toolCallId);
      if (i === -1) continue; // orphan result: its call is gone (e.g. compacted away)
      pending.splice(i, 1);
      out.push(m);
      continue;
    }
    flush();
    out.push(m);
    if (m.role === 'assistant') {
      for (const b of m.content) if (b.type === 'toolCall') pending.push({ id: b.id, name: b.name });
    }
  }
  flush();
  return out;
}

/** The text of a content array (text blocks joined with newlines). */
export const textOf = (content: unknown): string => contentText(content);
