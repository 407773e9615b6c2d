/**
 * MEMORY.md's history: every version Cairn can find — the copies dreaming saved in OpenClaw's
 * plugin state before each accepted rewrite, the versions Cairn itself saw (seen-versions.ts)
 * and the file on disk now — in time order, each with the entry lines it added and removed
 * and the promoted entries that first appear in it, joined with what dreaming recorded about
 * them (evidence.ts). Pure: the caller reads the files and stores.
 */
import type { MemoryHistory, MemoryVersion, PromotedEntry } from '../../../shared/types/dreaming';
import type { DreamingState } from './plugin-state';
import type { SearchCall } from './recall-sessions';
import type { SeenVersion } from './seen-versions';
import { candidateStatuses, evidenceOf, type Thresholds } from './evidence';
import { entryDiff, promotedEntries } from './memory-entries';
import { sha256 } from './plugin-state';

/** What the history is built from. */
export interface HistoryInput {
  agentId: string;
  state: DreamingState;
  seen: SeenVersion[];
  current?: { text: string; mtime: Date };
  calls: SearchCall[];
  thresholds: Thresholds;
  now: Date;
}

/** Attach the recall store's evidence to a promoted entry (by its marker key, else by its source lines). */
function withEvidence(entry: PromotedEntry, input: HistoryInput): PromotedEntry {
  const row =
    input.state.recalls.find((r) => entry.key !== undefined && r.key === entry.key) ??
    input.state.recalls.find((r) => entry.source && r.path === entry.source.path && r.startLine === entry.source.startLine && r.endLine === entry.source.endLine);
  return row ? { ...entry, evidence: evidenceOf(row, input.state, input.calls) } : entry;
}

/** Build the history (versions oldest first; consecutive identical texts shown once). */
export function buildHistory(input: HistoryInput): MemoryHistory {
  const raw: Omit<MemoryVersion, 'added' | 'removed' | 'promotions'>[] = [
    ...input.state.backups.map((b) => ({
      id: `backup:${b.createdAt}`,
      kind: 'dreaming-backup' as const,
      at: b.createdAt,
      label: 'Saved by dreaming just before it rewrote MEMORY.md',
      contentHash: sha256(b.content),
      text: b.content,
    })),
    ...input.seen.map((s) => ({ id: `seen:${s.contentHash.slice(0, 16)}`, kind: 'seen' as const, at: s.firstSeenAt, label: 'Seen by Cairn', contentHash: s.contentHash, text: s.content })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  if (input.current) {
    raw.push({ id: 'current', kind: 'current', at: input.current.mtime.toISOString(), label: 'On disk now', contentHash: sha256(input.current.text), text: input.current.text });
  }
  // The same text seen again in a row is one version (the newest label wins: "on disk now").
  const ordered = raw.filter((v, i) => raw[i + 1]?.contentHash !== v.contentHash);
  const versions: MemoryVersion[] = ordered.map((v, i) => {
    const prev = ordered[i - 1];
    const { added, removed } = prev ? entryDiff(prev.text, v.text) : { added: [], removed: [] };
    const promos = promotedEntries(v.text).filter((p) => !prev || added.includes(p.text));
    return { ...v, added, removed, promotions: promos.map((p) => withEvidence(p, input)) };
  });
  const promoted = input.current ? promotedEntries(input.current.text).map((p) => withEvidence(p, input)) : [];
  const inMemory = new Set(promoted.flatMap((p) => (p.evidence ? [p.evidence.key] : [])));
  const waiting = candidateStatuses(input.state, input.calls, input.thresholds, input.now).filter((c) => !c.promoted && !inMemory.has(c.evidence.key));
  const { minScore, minRecallCount, minUniqueQueries } = input.thresholds;
  return { agentId: input.agentId, versions, promoted, waiting, thresholds: { minScore, minRecallCount, minUniqueQueries }, store: input.state.info };
}
