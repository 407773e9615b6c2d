/**
 * The pruning diff (SPEC §3 step 5): what pruning did to each tool result and to the ratio,
 * shown by the UI and the CLI. Shared by the engine and the renderer; no Node or DOM here.
 */

export type PruneAction = 'kept' | 'soft-trimmed' | 'cleared';

/**
 * The pruning settings (SPEC §3, `agents.defaults.contextPruning`) with every default filled
 * in, as the engine's config schema outputs them (electron/engine/config/schema.ts holds the
 * defaults; the engine hands this type to the renderer, so the UI never repeats them). The
 * schema's output must stay assignable to it: sessions/preview.ts returns one as this type.
 */
export interface ContextPruningSettings {
  mode: 'cache-ttl' | 'off';
  ttl: string;
  keepLastAssistants: number;
  softTrimRatio: number;
  hardClearRatio: number;
  minPrunableToolChars: number;
  softTrim: { maxChars: number; headChars: number; tailChars: number };
  hardClear: { enabled: boolean; placeholder: string };
  tools: { allow: string[]; deny: string[] };
}

/** Why a tool result was left alone. */
export type KeptReason =
  | 'recent'
  /** No longer produced: an image in a prunable result is replaced (SPEC §3); kept for older clients. */
  | 'image'
  | 'before-first-user'
  | 'tool-not-prunable'
  | 'few-assistants'
  | 'small'
  | 'gate'
  | 'under-ratio';

/** How OpenClaw recorded pruning a tool result in its projection marker (replayed on every later call). */
export type ReplayMode = 'soft' | 'hard';

export interface TtlGate {
  mode: 'cache-ttl' | 'off';
  ttlMs: number;
  /** Epoch ms of the last model call for this session+model, when one is recorded. */
  lastCallAt: number | undefined;
  now: number;
  /** True when pruning may run. */
  open: boolean;
  /**
   * `route-not-eligible`: the session's route writes no model-call markers at all (OpenClaw
   * writes them only on Anthropic-wire routes), so cache-TTL pruning never runs on it.
   */
  reason: 'off' | 'no-cache-touch' | 'route-not-eligible' | 'ttl-not-expired' | 'ttl-expired' | 'ttl-ignored';
}

export interface ToolResultDiff {
  /** Index in the message list. */
  index: number;
  entryId?: string;
  toolName: string;
  toolCallId: string;
  action: PruneAction;
  /** Set when `action` is "kept". */
  keptBecause?: KeptReason;
  /** Weighted chars (CJK ×4, images 8,000) before and after. */
  charsBefore: number;
  charsAfter: number;
  /** Set when the action replays OpenClaw's recorded pruning of this result (not a new round). */
  replayed?: ReplayMode;
  /** Images replaced by "[image removed during context pruning]". */
  imagesRemoved?: number;
}

export interface PruneDiff {
  gate: TtlGate;
  /** True when pruning changed at least one message. */
  changed: boolean;
  charWindow: number;
  totalCharsBefore: number;
  totalCharsAfter: number;
  ratioBefore: number;
  ratioAfter: number;
  softTrimmed: number;
  cleared: number;
  /** How many of the soft-trimmed/cleared results replay OpenClaw's recorded pruning. */
  replayed: number;
  charsSaved: number;
  toolResults: ToolResultDiff[];
}
