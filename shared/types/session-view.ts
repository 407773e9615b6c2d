/**
 * Types of the session overview (token chart and compaction history) shared by the engine
 * and the renderer. No Node or DOM imports.
 */

/** The estimated context size after one entry. */
export interface TokenPoint {
  /** Index of the entry in the transcript's entries (file order). */
  index: number;
  entryId: string;
  /** Estimated context tokens once this entry is in the context. */
  tokens: number;
  /** True for a compaction entry: the drop. */
  compaction: boolean;
}

export interface CompactionView {
  id: string;
  /** Index of the entry in the transcript's entries. */
  index: number;
  /** 1-based, oldest first along the branch. */
  ordinal: number;
  summary: string;
  firstKeptEntryId: string;
  /** The entry's recorded `tokensBefore` (else Cairn's estimate); see `recorder` for whose count it is. */
  tokensBefore: number;
  /** Estimated tokens right after the compaction (summary + kept messages). */
  tokensAfter: number;
  /** Cairn's estimate of the context just before the compaction (transcript only, SPEC §2). */
  estimatedTokensBefore: number;
  /** The entry's recorded `tokensAfter` (OpenClaw writes it; Cairn does not), when present. */
  recordedTokensAfter?: number | undefined;
  /**
   * Whose figures `tokensBefore`/`recordedTokensAfter` are: "openclaw" (its entries carry
   * `tokensAfter`/`fromHook`; its counts include the system prompt) or "cairn" (Cairn's estimate).
   */
  recorder: 'openclaw' | 'cairn';
  /** The summary is Cairn's deterministic extract, not a model's. */
  extract: boolean;
  timestamp: string;
  details?: { readFiles?: string[] | undefined; modifiedFiles?: string[] | undefined };
}

export interface SessionOverview {
  sessionId: string;
  points: TokenPoint[];
  compactions: CompactionView[];
  /** Context window (tokens) the thresholds are computed for. */
  contextWindow: number;
  /** The memory flush runs at or above this: window − reserveTokensFloor − softThresholdTokens. */
  flushThreshold: number;
  /** Compaction runs above this: window − max(reserveTokens, reserveTokensFloor). */
  compactionThreshold: number;
}
