/**
 * Compaction settings that make sense for the model's window. The defaults (reserve floor
 * 20,000, keep 20,000, flush soft threshold 4,000) suit 128k–200k windows; on an 8k local
 * model they would put the threshold below zero, so every call would compact and flush.
 * The reserve and soft-threshold caps are compaction/thresholds.ts's (the one rule the
 * whole engine uses, OpenClaw's); this adds the cap on the verbatim recent tail, which only
 * the turn loop's compaction needs. For large windows nothing changes.
 */
import type { CompactionSettings } from '../config/schema';
import { MAX_RESERVE_SHARE, MAX_SOFT_THRESHOLD_SHARE } from '../compaction/thresholds';

export { MAX_RESERVE_SHARE, MAX_SOFT_THRESHOLD_SHARE };
/** Share of the window the verbatim recent tail may take. */
export const MAX_KEEP_SHARE = 0.25;

/** `s` with reserve, keep and soft threshold capped to their share of `contextWindow`. */
export function fitCompactionToWindow(s: CompactionSettings, contextWindow: number): CompactionSettings {
  const cap = (v: number, share: number) => Math.min(v, Math.floor(contextWindow * share));
  return {
    ...s,
    reserveTokens: cap(s.reserveTokens, MAX_RESERVE_SHARE),
    reserveTokensFloor: cap(s.reserveTokensFloor, MAX_RESERVE_SHARE),
    keepRecentTokens: cap(s.keepRecentTokens, MAX_KEEP_SHARE),
    memoryFlush: { ...s.memoryFlush, softThresholdTokens: cap(s.memoryFlush.softThresholdTokens, MAX_SOFT_THRESHOLD_SHARE) },
  };
}
