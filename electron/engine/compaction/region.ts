/**
 * What compaction can work on: the messages of the current context after the previous
 * compaction's summary, each with its entry, token estimate and whether a cut may fall
 * before it.
 */
import type { Message } from '../../../shared/types/messages';
import { buildContext, type BuiltContext } from '../transcript/context';
import { isCompactionEntry } from '../transcript/entries';
import { estimateMessageTokens } from '../transcript/tokens';
import type { CompactionEntry, Entry, Transcript } from '../transcript/types';
import { entryToMessage } from '../transcript/context';

export interface RegionItem {
  entry: Entry;
  message: Message;
  tokens: number;
  /** A cut may fall right before this item (user/assistant-like, never a tool result). */
  cuttable: boolean;
}

export interface Region {
  context: BuiltContext;
  /** The compaction whose summary starts the context, if any. */
  previous: CompactionEntry | undefined;
  items: RegionItem[];
  /** Estimated tokens of the whole current context (summary included). */
  contextTokens: number;
  /** The id of the branch's last entry (the new compaction's parent). */
  leafId: string | null;
}

/** Collect the region from a transcript (the branch ending at its last entry). */
export function compactionRegion(t: Transcript): Region {
  const context = buildContext(t);
  const previous = context.compaction;
  const items: RegionItem[] = [];
  const path = context.path;
  let start = 0;
  if (previous) {
    const at = path.findIndex((i) => (t.entries[i] as Entry).id === previous.id);
    const kept = path.findIndex((i, k) => k < at && (t.entries[i] as Entry).id === previous.firstKeptEntryId);
    start = kept >= 0 ? kept : at + 1;
  }
  for (let k = start; k < path.length; k++) {
    const entry = t.entries[path[k] as number] as Entry;
    if (isCompactionEntry(entry)) continue;
    const m = entryToMessage(entry);
    if (!m || m.kind === 'summary') continue;
    items.push({ entry, message: m.message, tokens: estimateMessageTokens(m.message), cuttable: m.message.role !== 'toolResult' });
  }
  let contextTokens = 0;
  for (const m of context.messages) contextTokens += estimateMessageTokens(m);
  const leafIndex = path.at(-1);
  return { context, previous, items, contextTokens, leafId: leafIndex === undefined ? null : (t.entries[leafIndex] as Entry).id };
}
