/**
 * When the memory flush runs (SPEC §5): projected tokens ≥ contextWindow − reserveTokensFloor
 * − softThresholdTokens (both capped on small windows, see thresholds.ts), or the transcript ≥ forceFlushTranscriptBytes; at most once per
 * compaction cycle (memoryFlushCompactionCount === compactionCount → skip); never for a
 * read-only state dir.
 */
import type { CompactionSettings } from '../config/schema';
import type { SessionIndexEntry } from '../transcript/sessions-index';
import { windowThresholds } from './thresholds';

/** The flush threshold of `contextWindow` (thresholds.ts: floor and soft threshold capped for small windows). */
export function flushThreshold(contextWindow: number, settings: CompactionSettings): number {
  return windowThresholds(contextWindow, settings).flushAt;
}

export interface FlushDecision {
  flush: boolean;
  reason: string;
  threshold: number;
}

/** True when this compaction cycle already had its flush. */
export function flushedThisCycle(entry: Pick<SessionIndexEntry, 'compactionCount' | 'memoryFlushCompactionCount'> | undefined): boolean {
  return entry?.memoryFlushCompactionCount !== undefined && entry.memoryFlushCompactionCount === (entry.compactionCount ?? 0);
}

export function shouldFlush(opts: {
  settings: CompactionSettings;
  contextWindow: number;
  projectedTokens: number;
  transcriptBytes: number;
  entry: SessionIndexEntry | undefined;
  writable: boolean;
}): FlushDecision {
  const threshold = flushThreshold(opts.contextWindow, opts.settings);
  const mf = opts.settings.memoryFlush;
  if (!mf.enabled) return { flush: false, reason: 'memory flush is disabled', threshold };
  if (!opts.writable) return { flush: false, reason: 'the state dir is read-only', threshold };
  if (flushedThisCycle(opts.entry)) return { flush: false, reason: 'already flushed in this compaction cycle', threshold };
  if (opts.projectedTokens >= threshold) return { flush: true, reason: `projected ${opts.projectedTokens} tokens ≥ ${threshold}`, threshold };
  if (opts.transcriptBytes >= mf.forceFlushTranscriptBytes) {
    return { flush: true, reason: `transcript is ${opts.transcriptBytes} bytes ≥ ${mf.forceFlushTranscriptBytes}`, threshold };
  }
  return { flush: false, reason: `projected ${opts.projectedTokens} tokens < ${threshold}`, threshold };
}
