/**
 * The cut point (SPEC §4): walk back from the newest message summing tokens until the sum
 * reaches the keep budget, then cut at the next user/assistant message — never between a
 * tool call and its results. Everything before the cut is summarised; the rest is kept.
 */
import type { RegionItem } from './region';

export interface CutPoint {
  /** Index into the region of the first kept item; `items.length` keeps nothing. */
  index: number;
  /** Tokens of the kept items. */
  keptTokens: number;
  /** Tokens of the items to summarise. */
  summarizedTokens: number;
}

/**
 * Find the cut for `keepTokens`. When the walk ends on a stretch with no cuttable item after
 * it (one long tool loop at the end), the nearest cuttable item before is used instead, so a
 * session can still shrink. `keepTokens <= 0` keeps nothing. Index 0 means nothing to summarise.
 */
export function findCutPoint(items: readonly RegionItem[], keepTokens: number): CutPoint {
  let total = 0;
  for (const it of items) total += it.tokens;
  if (keepTokens <= 0) return { index: items.length, keptTokens: 0, summarizedTokens: total };
  let acc = 0;
  let reached = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    acc += (items[i] as RegionItem).tokens;
    if (acc >= keepTokens) {
      reached = i;
      break;
    }
  }
  if (reached < 0) return { index: 0, keptTokens: total, summarizedTokens: 0 };
  let index = -1;
  for (let i = reached; i < items.length; i++) {
    if ((items[i] as RegionItem).cuttable) {
      index = i;
      break;
    }
  }
  if (index < 0) {
    for (let i = reached - 1; i >= 0; i--) {
      if ((items[i] as RegionItem).cuttable) {
        index = i;
        break;
      }
    }
  }
  if (index < 0) index = 0;
  let kept = 0;
  for (let i = index; i < items.length; i++) kept += (items[i] as RegionItem).tokens;
  return { index, keptTokens: kept, summarizedTokens: total - kept };
}
