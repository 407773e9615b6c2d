/**
 * Rebuilding the model's context from a transcript (SPEC §1.1). The path runs from the leaf
 * (the last entry) to the root along `parentId`. If the newest compaction on that path
 * exists, its summary comes first as a user message, then the entries from
 * `firstKeptEntryId` up to that compaction, then everything after it.
 */
import type { Message, UserMessage } from '../../../shared/types/messages';
import { isBranchSummaryEntry, isCompactionEntry, isCustomMessageEntry, isMessageEntry } from './entries';
import type { CompactionEntry, Entry, Transcript } from './types';
import { contentText } from '../../../shared/text/content';

export const COMPACTION_SUMMARY_PREFIX = 'The conversation history before this point was compacted into the following summary:\n\n<summary>\n';
export const COMPACTION_SUMMARY_SUFFIX = '\n</summary>';
export const BRANCH_SUMMARY_PREFIX = 'The following is a summary of a branch that this conversation came back to:\n\n<summary>\n';
export const BRANCH_SUMMARY_SUFFIX = '\n</summary>';

/** The user message that carries a compaction summary into the context. */
export function summaryMessage(summary: string, timestamp?: string): UserMessage {
  const m: UserMessage = { role: 'user', content: [{ type: 'text', text: `${COMPACTION_SUMMARY_PREFIX}${summary}${COMPACTION_SUMMARY_SUFFIX}` }] };
  if (timestamp !== undefined) m.timestamp = timestamp;
  return m;
}

/**
 * Indices (into `t.entries`) of the branch ending at `leafId` (default: the last entry), root
 * first. A `parentId` that is missing from the file (e.g. its line is malformed) or that does
 * not point backwards falls back to the entry just before in file order, so a damaged link
 * never loses the earlier history and can never loop.
 */
export function branchPath(t: Transcript, leafId?: string): number[] {
  let i = leafId === undefined ? t.entries.length - 1 : (t.byId.get(leafId) ?? -1);
  const out: number[] = [];
  while (i >= 0) {
    out.push(i);
    const parentId = (t.entries[i] as Entry).parentId;
    if (parentId === null || parentId === undefined) break;
    const p = t.byId.get(parentId);
    i = p !== undefined && p < i ? p : i - 1;
  }
  return out.reverse();
}

/** Where a context message came from. */
export interface ContextSource {
  /** Entry id (the compaction's id for the summary message). */
  entryId: string;
  kind: 'message' | 'summary' | 'custom_message' | 'branch_summary';
}

export interface BuiltContext {
  messages: Message[];
  /** Parallel to `messages`. */
  sources: ContextSource[];
  /** The compaction the context starts from, if any. */
  compaction: CompactionEntry | undefined;
  /** The entries (indices into `t.entries`) on the branch, root first. */
  path: number[];
}

const textOf = (content: unknown): string => contentText(content, { sep: '' });

/** The message an entry contributes to the context, if any. */
export function entryToMessage(e: Entry): { message: Message; kind: ContextSource['kind'] } | undefined {
  if (isMessageEntry(e)) {
    const m = e.message as Record<string, unknown>;
    switch (m.role) {
      case 'user':
      case 'assistant':
      case 'toolResult':
        return { message: e.message as Message, kind: 'message' };
      case 'custom':
        // pi's extension messages: sent as user content.
        return { message: { role: 'user', content: (m.content as UserMessage['content']) ?? '', timestamp: m.timestamp as number }, kind: 'message' };
      case 'bashExecution': {
        if (m.excludeFromContext) return undefined;
        const text = `Ran \`${String(m.command ?? '')}\`\n\`\`\`\n${String(m.output ?? '')}\n\`\`\``;
        return { message: { role: 'user', content: [{ type: 'text', text }], timestamp: m.timestamp as number }, kind: 'message' };
      }
      case 'branchSummary':
        return { message: { role: 'user', content: [{ type: 'text', text: `${BRANCH_SUMMARY_PREFIX}${String(m.summary ?? '')}${BRANCH_SUMMARY_SUFFIX}` }] }, kind: 'branch_summary' };
      case 'compactionSummary':
        return { message: summaryMessage(String(m.summary ?? '')), kind: 'summary' };
      default:
        return undefined;
    }
  }
  if (isCustomMessageEntry(e)) {
    const content = typeof e.content === 'string' || Array.isArray(e.content) ? e.content : textOf(e.content);
    return { message: { role: 'user', content, timestamp: e.timestamp }, kind: 'custom_message' };
  }
  if (isBranchSummaryEntry(e)) {
    return {
      message: { role: 'user', content: [{ type: 'text', text: `${BRANCH_SUMMARY_PREFIX}${e.summary}${BRANCH_SUMMARY_SUFFIX}` }], timestamp: e.timestamp },
      kind: 'branch_summary',
    };
  }
  return undefined;
}

/** Rebuild the context of the branch ending at `leafId` (default: the last entry). */
export function buildContext(t: Transcript, leafId?: string): BuiltContext {
  const path = branchPath(t, leafId);
  let compactionAt = -1;
  for (let k = path.length - 1; k >= 0; k--) {
    if (isCompactionEntry(t.entries[path[k] as number] as Entry)) {
      compactionAt = k;
      break;
    }
  }
  const messages: Message[] = [];
  const sources: ContextSource[] = [];
  const add = (e: Entry) => {
    const m = entryToMessage(e);
    if (m) {
      messages.push(m.message);
      sources.push({ entryId: e.id, kind: m.kind });
    }
  };
  let compaction: CompactionEntry | undefined;
  if (compactionAt >= 0) {
    compaction = t.entries[path[compactionAt] as number] as CompactionEntry;
    messages.push(summaryMessage(compaction.summary, compaction.timestamp));
    sources.push({ entryId: compaction.id, kind: 'summary' });
    let keeping = false;
    for (let k = 0; k < compactionAt; k++) {
      const e = t.entries[path[k] as number] as Entry;
      if (e.id === compaction.firstKeptEntryId) keeping = true;
      if (keeping) add(e);
    }
    for (let k = compactionAt + 1; k < path.length; k++) add(t.entries[path[k] as number] as Entry);
  } else {
    for (const i of path) add(t.entries[i] as Entry);
  }
  return { messages, sources, compaction, path };
}
