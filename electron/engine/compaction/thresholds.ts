/**
 * When to compact and flush (SPEC §4 triggers a, b and d's settings; SPEC §5's threshold).
 * The one place the engine turns a context window and the compaction settings into token
 * thresholds: the turn loop, the memory flush, the sessions token chart and
 * `compact --dry-run` all call windowThresholds() (or the helpers built on it), so they
 * agree with each other and with OpenClaw. (c) is `withOverflowRetry` in overflow-retry.ts
 * and (d) is a manual `compact()` call.
 *
 * Small windows *(compat: OpenClaw 2026.9)*: the reply reserve is capped at a quarter of the
 * window — on a 40,000 window the prompt budget is 30,000, not 40,000 − the 20,000 floor
 * (OpenClaw's fixture session reports `promptBudgetBeforeReserve 30000, reserveTokens 10000`
 * and its flush ran after a 29,405-token request). The flush's soft threshold is capped at
 * a tenth of the window so that an 8k local model does not flush on every call. The tail a
 * compaction keeps is capped at a quarter of the window too (`keepBudget`).
 */
import type { CompactionSettings } from '../config/schema';

/** Share of the window the reply reserve may take (OpenClaw: a quarter). */
export const MAX_RESERVE_SHARE = 0.25;
/** Share of the window the verbatim recent tail a compaction keeps may take. */
export const MAX_KEEP_SHARE = 0.25;
/** Share of the window the flush's soft threshold may take. */
export const MAX_SOFT_THRESHOLD_SHARE = 0.1;

type ReserveSettings = Pick<CompactionSettings, 'reserveTokens' | 'reserveTokensFloor'>;

/**
 * The reserve kept free for the reply: max(reserveTokens, reserveTokensFloor), capped at a
 * quarter of `contextWindow` when it is given.
 */
export function effectiveReserve(settings: ReserveSettings, contextWindow?: number): number {
  const r = Math.max(settings.reserveTokens, settings.reserveTokensFloor);
  return contextWindow === undefined ? r : Math.min(r, Math.floor(contextWindow * MAX_RESERVE_SHARE));
}

/** Every threshold of one context window, in tokens. */
export interface WindowThresholds {
  contextWindow: number;
  /** The effective reply reserve (capped at a quarter of the window). */
  reserve: number;
  /** True when the quarter-window cap lowered the reserve. */
  reserveCapped: boolean;
  /** Compaction runs above this: contextWindow − reserve (never below 1). */
  compactAt: number;
  /** The memory flush runs at or above this: contextWindow − min(floor, cap) − soft threshold (never below 0). */
  flushAt: number;
}

/** The thresholds of `contextWindow` under `settings` (see the file comment for the small-window caps). */
export function windowThresholds(contextWindow: number, settings: ReserveSettings & { memoryFlush?: { softThresholdTokens: number } }): WindowThresholds {
  const reserve = effectiveReserve(settings, contextWindow);
  const floor = Math.min(settings.reserveTokensFloor, Math.floor(contextWindow * MAX_RESERVE_SHARE));
  const soft = Math.min(settings.memoryFlush?.softThresholdTokens ?? 0, Math.floor(contextWindow * MAX_SOFT_THRESHOLD_SHARE));
  return {
    contextWindow,
    reserve,
    reserveCapped: reserve < Math.max(settings.reserveTokens, settings.reserveTokensFloor),
    compactAt: Math.max(1, contextWindow - reserve),
    flushAt: Math.max(0, contextWindow - floor - soft),
  };
}

/**
 * Tokens of the recent tail a compaction keeps verbatim — the one rule for every compaction
 * (the turn loop's triggers, `compact.plan`'s dry run, `compact.run`, `cairn compact`):
 * `keepRecentTokens`, at most `maxHistoryShare` of the window and at most a quarter of it.
 *
 * *(compat: OpenClaw 2026.9)* OpenClaw keeps `keepRecentTokens` (20,000) and, for an
 * automatic compaction, fewer when the tail would not fit beside the fixed prompt, the pending
 * input, the summary and the reserve (which it caps at a quarter of the window). For windows
 * of 80,000 and more the quarter is ≥ 20,000 and this is OpenClaw's number; below, the tail
 * takes at most the quarter the reserve takes, so reserve + tail leave half the window for
 * the summary, the system prompt and the tools whatever they are — a fixed share, so a dry
 * run, which does not know the chat's system prompt, predicts exactly what chat keeps.
 */
export function keepBudget(settings: Pick<CompactionSettings, 'keepRecentTokens' | 'maxHistoryShare'>, contextWindow: number): number {
  const share = Math.min(settings.maxHistoryShare, MAX_KEEP_SHARE);
  return Math.max(0, Math.min(settings.keepRecentTokens, Math.floor(share * contextWindow)));
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
export function contextBudget(contextWindow: number, settings: ReserveSettings): number {
  return windowThresholds(contextWindow, settings).compactAt;
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
    reason: `${opts.usageTokens ? 'usage' : 'estimate'} ${tokens} ${compact ? '>' : '≤'} context window ${opts.contextWindow} − reserve ${effectiveReserve(opts.settings, opts.contextWindow)}`,
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
