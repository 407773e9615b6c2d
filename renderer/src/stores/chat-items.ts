/**
 * What the chat pane shows, one item per bubble or marker, and the conversion of a
 * transcript's entries (sessions.entries) into those items when a session is opened.
 */
import type { EntryView } from '../../../shared/types/sessions';
import { contentText } from '../../../shared/text/content';
import { num } from '../pages/sessions/format';

export type ChatItem =
  | { kind: 'user'; key: string; text: string }
  | { kind: 'assistant'; key: string; text: string; thinking: string; live: boolean }
  | { kind: 'toolCall'; key: string; id: string; name: string; args: Record<string, unknown> }
  | { kind: 'toolResult'; key: string; id: string; name: string; isError: boolean; text: string }
  | { kind: 'marker'; key: string; marker: 'pruning' | 'flush' | 'compaction' | 'retry' | 'note'; text: string };

type Block = { type: string; text?: string; thinking?: string; id?: string; name?: string; arguments?: Record<string, unknown> };

const textOf = (content: unknown): string => contentText(content, { image: '[image]' });

/** Convert transcript entries (file order, current branch) into chat items. */
export function entriesToItems(entries: EntryView[]): ChatItem[] {
  const out: ChatItem[] = [];
  for (const e of entries) {
    const key = `e-${e.id}`;
    if (e.type === 'compaction' && e.compaction) {
      out.push({
        kind: 'marker',
        key,
        marker: 'compaction',
        text: `Compaction: ${num(e.compaction.tokensBefore)} tokens summarised${e.compaction.extract ? ' (deterministic extract)' : ''}; earlier messages are replaced by the summary in the model's context.`,
      });
      continue;
    }
    if (e.type === 'custom_message') {
      out.push({ kind: 'marker', key, marker: 'note', text: e.preview });
      continue;
    }
    const m = e.message;
    if (e.type !== 'message' || !m) continue;
    if (m.role === 'user') {
      out.push({ kind: 'user', key, text: textOf(m.content) });
    } else if (m.role === 'assistant') {
      const blocks = m.content as Block[];
      const text = blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('\n');
      const thinking = blocks.filter((b) => b.type === 'thinking').map((b) => b.thinking ?? '').join('\n');
      if (text || thinking) out.push({ kind: 'assistant', key, text, thinking, live: false });
      blocks.forEach((b, i) => {
        if (b.type === 'toolCall') out.push({ kind: 'toolCall', key: `${key}-${i}`, id: b.id ?? '', name: b.name ?? '?', args: b.arguments ?? {} });
      });
    } else if (m.role === 'toolResult') {
      out.push({ kind: 'toolResult', key, id: m.toolCallId, name: m.toolName, isError: m.isError, text: textOf(m.content) });
    }
  }
  return out;
}
