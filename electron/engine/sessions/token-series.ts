/**
 * A session's life in tokens, for the token chart and the compaction cards: the estimated
 * context size after every message along the branch (SPEC §2 estimate), dropping at each
 * compaction to summary + kept messages, and each compaction with its tokens before → after
 * and its place in the "summary of a summary" chain. Pure: takes a parsed transcript.
 */
import { branchPath, entryToMessage, summaryMessage } from '../transcript/context';
import { isCompactionEntry } from '../transcript/entries';
import { estimateMessageTokens } from '../transcript/tokens';
import type { Entry, Transcript } from '../transcript/types';
import type { CompactionView, TokenPoint } from '../../../shared/types/session-view';

export interface TokenLife {
  points: TokenPoint[];
  compactions: CompactionView[];
}

/**
 * Walk the branch once, keeping the running context like buildContext() would rebuild it.
 * `tokensAt[i]`, when given, is entry i's estimate already computed by the caller.
 */
export function tokenLife(t: Transcript, tokensAt?: readonly number[]): TokenLife {
  const path = branchPath(t);
  const points: TokenPoint[] = [];
  const compactions: CompactionView[] = [];
  // Messages of the current context in order, with their estimates and entry index.
  let live: { i: number; tokens: number }[] = [];
  let summaryTokens = 0;
  let total = 0;
  for (const i of path) {
    const e = t.entries[i] as Entry;
    if (isCompactionEntry(e)) {
      const before = total;
      // Kept: the messages at or after firstKeptEntryId on the branch, as buildContext()
      // keeps them. OpenClaw points it at a non-message entry (a cache-ttl marker), so the
      // match is by position in the file, not by a message's own id.
      const keptFrom = t.byId.get(e.firstKeptEntryId);
      const from = keptFrom === undefined || !path.includes(keptFrom) ? -1 : live.findIndex((m) => m.i >= keptFrom);
      live = from >= 0 ? live.slice(from) : [];
      summaryTokens = tokensAt?.[i] ?? estimateMessageTokens(summaryMessage(e.summary));
      total = summaryTokens + live.reduce((n, m) => n + m.tokens, 0);
      compactions.push({
        id: e.id,
        index: i,
        ordinal: compactions.length + 1,
        summary: e.summary,
        firstKeptEntryId: e.firstKeptEntryId,
        tokensBefore: typeof e.tokensBefore === 'number' ? e.tokensBefore : before,
        tokensAfter: total,
        estimatedTokensBefore: before,
        // OpenClaw's counts are the provider's prompt size (system prompt included), not
        // Cairn's transcript estimate: kept apart so the card never compares the two (12.6).
        recordedTokensAfter: typeof e.tokensAfter === 'number' ? e.tokensAfter : undefined,
        recorder: typeof e.tokensAfter === 'number' || 'fromHook' in e ? 'openclaw' : 'cairn',
        extract: e.details?.extract === true,
        timestamp: e.timestamp,
        ...(e.details ? { details: { readFiles: e.details.readFiles, modifiedFiles: e.details.modifiedFiles } } : {}),
      });
      points.push({ index: i, entryId: e.id, tokens: total, compaction: true });
      continue;
    }
    const m = entryToMessage(e);
    if (!m) continue;
    const tokens = tokensAt?.[i] ?? estimateMessageTokens(m.message);
    live.push({ i, tokens });
    total += tokens;
    points.push({ index: i, entryId: e.id, tokens: total, compaction: false });
  }
  return { points, compactions };
}
