/**
 * When to compact (SPEC §4 triggers a, b and d's settings). Pure functions the turn loop calls:
 * (a) after a reply, (b) before sending; (c) is `withOverflowRetry` in overflow-retry.ts and
 * (d) is a manual `compact()` call.
 */
import type { CompactionSettings } from '../config/schema';

/** The reserve kept free for the reply: max(reserveTokens, reserveTokensFloor). */
export function effectiveReserve(settings: Pick<CompactionSettings, 'reserveTokens' | 'reserveTokensFloor'>): number {
  return Math.max(settings.reserveTokens, settings.reserveTokensFloor);
}

export interface TriggerDecision {
  compact: boolean;
  /** The token count that was compared. */
  tokens: number;
  /** Compaction runs when `tokens` exceeds this. */
  threshold: number;
  reason: string;
}

/** The budget the context may fill: contextWindow − effective reserve (never below 1). */
export function contextBudget(contextWindow: number, settings: Pick<CompactionSettings, 'reserveTokens' | 'reserveTokensFloor'>): number {
  return Math.max(1, contextWindow - effectiveReserve(settings));
}

/**
 * Trigger (a): after a model reply whose usage (or, without usage, the estimate) exceeds
 * contextWindow − effective reserve.
 */
export function shouldCompactAfterReply(opts: {
  contextWindow: number;
  settings: CompactionSettings;
  /** The provider's reported context size of the last call (input + output + cache). */
  usageTokens?: number;
  /** The estimate of the context, used when the provider reported no usage. */
  estimatedTokens: number;
}): TriggerDecision {
  const threshold = contextBudget(opts.contextWindow, opts.settings);
  const tokens = opts.usageTokens && opts.usageTokens > 0 ? opts.usageTokens : opts.estimatedTokens;
  const compact = tokens > threshold;
  return {
    compact,
    tokens,
    threshold,
    reason: `${opts.usageTokens ? 'usage' : 'estimate'} ${tokens} ${compact ? '>' : '≤'} context window ${opts.contextWindow} − reserve ${effectiveReserve(opts.settings)}`,
  };
}

/** The safety factor on the estimate before sending (trigger b). */
export const PRESEND_FACTOR = 1.2;

/**
 * Trigger (b): before sending, when (history + system + prompt) × 1.2 would not fit in
 * contextWindow − effective reserve.
 */
export function shouldCompactBeforeSend(opts: {
  contextWindow: number;
  settings: CompactionSettings;
  historyTokens: number;
  systemTokens: number;
  promptTokens: number;
}): TriggerDecision {
  const threshold = contextBudget(opts.contextWindow, opts.settings);
  const tokens = Math.ceil((opts.historyTokens + opts.systemTokens + opts.promptTokens) * PRESEND_FACTOR);
  const compact = tokens > threshold;
  return {
    compact,
    tokens,
    threshold,
    reason: `(history + system + prompt) × ${PRESEND_FACTOR} = ${tokens} ${compact ? '>' : '≤'} ${threshold}`,
  };
}
