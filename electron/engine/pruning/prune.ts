/**
 * Pruning (SPEC §3): trims or clears old tool results in the copy of the context sent to the
 * model, and says exactly what it did. Pure: returns new message objects for what changed
 * (sharing the rest), never touches the input or the file.
 */
import type { ImageBlock, Message, TextBlock, ToolResultMessage } from '../../../shared/types/messages';
import type { ContextPruningSettings } from '../config/schema';
import type { KeptReason, PruneDiff, ReplayMode, ToolResultDiff } from '../../../shared/types/pruning';
import { ttlGate } from './cache-ttl';
import { openclawWeightedLength as weightedLength } from '../../../shared/text/cjk';
import { messageWeight } from './chars';
import { toolPrunablePredicate } from './globs';
import { toolResultKey } from './replay';

/** What an image in a pruned tool result becomes *(compat: OpenClaw 2026.9, SPEC §3 step 2)*. */
export const IMAGE_REMOVED_TEXT = '[image removed during context pruning]';

export type { PruneDiff } from '../../../shared/types/pruning';

export interface PruneOptions {
  contextWindowTokens: number;
  /** Epoch ms or Date. */
  now: number | Date;
  /** The last model call for this session+model (epoch ms or Date); undefined when none is recorded. */
  lastCallAt: number | Date | undefined;
  /** Entry ids parallel to `messages`, named in the diff. */
  entryIds?: readonly (string | undefined)[];
  /** Prune as if the TTL had expired (the UI's "what would pruning do" view). */
  ignoreTtl?: boolean;
  /**
   * OpenClaw's recorded pruning (replay.ts: normalised key → mode), applied whatever the
   * gate says: OpenClaw replays it on every call after the round.
   */
  replay?: ReadonlyMap<string, ReplayMode>;
  /** False when the route records no model-call markers (the gate then says so). */
  routeEligible?: boolean;
}

export interface PruneResult {
  messages: Message[];
  diff: PruneDiff;
}

function ms(v: number | Date): number;
function ms(v: number | Date | undefined): number | undefined;
function ms(v: number | Date | undefined): number | undefined {
  return v instanceof Date ? v.getTime() : v;
}

function joinedText(m: ToolResultMessage): string[] {
  const parts: string[] = [];
  for (const b of m.content) if (b.type === 'text') parts.push(b.text);
  return parts;
}

/** `m` with each image block replaced by IMAGE_REMOVED_TEXT, and how many there were. */
function withoutImages(m: ToolResultMessage): { m: ToolResultMessage; removed: number } {
  // Content may be a plain string in a transcript a writer got slightly wrong: no images there.
  if (!Array.isArray(m.content)) return { m, removed: 0 };
  let removed = 0;
  const content = m.content.map((b): TextBlock | ImageBlock => {
    if (b.type !== 'image') return b;
    removed++;
    return { type: 'text', text: IMAGE_REMOVED_TEXT };
  });
  return removed === 0 ? { m, removed } : { m: { ...m, content }, removed };
}

/** The soft-trimmed text of a tool result, or undefined when it is short enough (SPEC §3 step 3). */
export function softTrimText(parts: string[], soft: { maxChars: number; headChars: number; tailChars: number }): string | undefined {
  const text = parts.join('\n');
  if (text.length <= soft.maxChars) return undefined;
  const head = Math.max(0, soft.headChars);
  const tail = Math.max(0, soft.tailChars);
  if (head + tail >= text.length) return undefined;
  return `${text.slice(0, head)}\n...\n${tail > 0 ? text.slice(text.length - tail) : ''}\n\n[Tool result trimmed: kept first ${head} chars and last ${tail} chars of ${text.length} chars.]`;
}

/** The newest results at or after this index are protected: the `keepLastAssistants`-th newest assistant; -1 when there are fewer. */
function protectedFrom(messages: readonly Message[], keepLastAssistants: number): number {
  if (keepLastAssistants <= 0) return messages.length;
  let left = keepLastAssistants;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'assistant' && --left === 0) return i;
  }
  return -1;
}

/** One diff row per tool result, with why it is kept; `prunable` indexes the rows pruning may touch. */
function classify(
  messages: readonly Message[],
  weights: readonly number[],
  settings: ContextPruningSettings,
  entryIds: PruneOptions['entryIds'],
): { diffs: ToolResultDiff[]; prunable: number[] } {
  const cutoff = protectedFrom(messages, settings.keepLastAssistants);
  const firstUser = messages.findIndex((m) => m.role === 'user');
  const isPrunableTool = toolPrunablePredicate(settings.tools);
  const diffs: ToolResultDiff[] = [];
  const prunable: number[] = [];
  messages.forEach((m, i) => {
    if (m.role !== 'toolResult') return;
    const weight = weights[i] ?? 0;
    const d: ToolResultDiff = { index: i, toolName: m.toolName, toolCallId: m.toolCallId, action: 'kept', charsBefore: weight, charsAfter: weight };
    const id = entryIds?.[i];
    if (id !== undefined) d.entryId = id;
    if (cutoff < 0) d.keptBecause = 'few-assistants';
    else if (i >= cutoff) d.keptBecause = 'recent';
    else if (firstUser < 0 || i < firstUser) d.keptBecause = 'before-first-user';
    else if (!isPrunableTool(m.toolName)) d.keptBecause = 'tool-not-prunable';
    else prunable.push(diffs.length);
    diffs.push(d);
  });
  return { diffs, prunable };
}

/**
 * The copy being pruned and its running size: each action replaces one message in `out`,
 * updates its diff row and keeps `total` (the weighted chars of the whole copy) exact.
 */
class PruneCopy {
  readonly out: Message[];
  total: number;
  private readonly placeholderChars: number;

  constructor(
    messages: readonly Message[],
    weights: readonly number[],
    private readonly settings: ContextPruningSettings,
  ) {
    this.out = messages.slice();
    this.total = weights.reduce((n, w) => n + w, 0);
    this.placeholderChars = weightedLength(settings.hardClear.placeholder);
  }

  /** Soft-trim one result (its images removed first); false when nothing changed. */
  softTrim(d: ToolResultDiff): boolean {
    const { m, removed } = withoutImages(this.out[d.index] as ToolResultMessage);
    const parts = joinedText(m);
    const trimmed = softTrimText(parts, this.settings.softTrim);
    if (trimmed === undefined && removed === 0) return false;
    const next = trimmed === undefined ? m : { ...m, content: [{ type: 'text', text: trimmed } satisfies TextBlock] };
    // A result without CJK or images has weight == length, and so has every piece of it.
    const plainLength = parts.reduce((n, p) => n + p.length, 0);
    const after = trimmed === undefined ? messageWeight(next) : removed === 0 && d.charsBefore === plainLength ? trimmed.length : weightedLength(trimmed);
    this.out[d.index] = next;
    this.total += after - d.charsAfter;
    d.action = 'soft-trimmed';
    d.charsAfter = after;
    if (removed > 0) d.imagesRemoved = removed;
    delete d.keptBecause;
    return true;
  }

  /** Replace one result by the placeholder. */
  clear(d: ToolResultDiff): void {
    const m = this.out[d.index] as ToolResultMessage;
    this.out[d.index] = { ...m, content: [{ type: 'text', text: this.settings.hardClear.placeholder }] };
    this.total += this.placeholderChars - d.charsAfter;
    d.action = 'cleared';
    d.charsAfter = this.placeholderChars;
    delete d.imagesRemoved;
    delete d.keptBecause;
  }
}

/** OpenClaw's replay: what it recorded pruning is pruned again on every call, whatever the gate says. */
function applyReplay(messages: readonly Message[], diffs: readonly ToolResultDiff[], replay: ReadonlyMap<string, ReplayMode>, copy: PruneCopy): void {
  for (const d of diffs) {
    const m = messages[d.index] as ToolResultMessage;
    const key = toolResultKey(m.toolCallId, m.timestamp);
    const mode = key === undefined ? undefined : replay.get(key);
    if (mode === undefined) continue;
    if (mode === 'hard') copy.clear(d);
    else if (!copy.softTrim(d)) continue;
    d.replayed = mode;
  }
}

/** Steps 3 and 4 of SPEC §3 on the prunable results, once the gate is open and the ratio reached. */
function trimThenClear(prunableRows: readonly ToolResultDiff[], settings: ContextPruningSettings, copy: PruneCopy, charWindow: number): void {
  // Step 3: soft trim (images in prunable results removed, SPEC §3 step 2).
  for (const d of prunableRows) {
    if (d.action !== 'kept') continue; // already pruned by the replay
    if (!copy.softTrim(d)) d.keptBecause = 'small';
  }
  // Step 4: hard clear, oldest first, until the ratio drops below hardClearRatio.
  if (!settings.hardClear.enabled || copy.total / charWindow < settings.hardClearRatio) return;
  const prunableChars = prunableRows.reduce((n, d) => n + d.charsAfter, 0);
  if (prunableChars < settings.minPrunableToolChars) return;
  for (const d of prunableRows) {
    if (copy.total / charWindow < settings.hardClearRatio) break;
    if (d.action === 'cleared') continue;
    copy.clear(d);
    delete d.replayed;
  }
}

/** The diff's totals and counts, and the messages to send (the input itself when nothing changed). */
function summarise(messages: readonly Message[], copy: PruneCopy, diffs: ToolResultDiff[], gate: PruneDiff['gate'], totalBefore: number, charWindow: number): PruneResult {
  let softTrimmed = 0;
  let cleared = 0;
  let replayed = 0;
  for (const d of diffs) {
    if (d.action === 'soft-trimmed') softTrimmed++;
    else if (d.action === 'cleared') cleared++;
    if (d.replayed) replayed++;
  }
  const changed = softTrimmed + cleared > 0;
  const total = copy.total;
  return {
    messages: changed ? copy.out : (messages as Message[]),
    diff: {
      gate,
      changed,
      charWindow,
      totalCharsBefore: totalBefore,
      totalCharsAfter: total,
      ratioBefore: totalBefore / charWindow,
      ratioAfter: total / charWindow,
      softTrimmed,
      cleared,
      replayed,
      charsSaved: totalBefore - total,
      toolResults: diffs,
    },
  };
}

/** Prune `messages` per `settings`; see SPEC §3 for the rules. */
export function prune(messages: readonly Message[], settings: ContextPruningSettings, opts: PruneOptions): PruneResult {
  let gate = ttlGate(settings.mode, settings.ttl, ms(opts.now), ms(opts.lastCallAt), opts.routeEligible ?? true);
  if (opts.ignoreTtl && settings.mode !== 'off' && !gate.open) gate = { ...gate, open: true, reason: 'ttl-ignored' };
  const charWindow = Math.max(1, opts.contextWindowTokens * 4);
  const weights = messages.map(messageWeight);
  const { diffs, prunable } = classify(messages, weights, settings, opts.entryIds);
  const copy = new PruneCopy(messages, weights, settings);
  const totalBefore = copy.total;
  if (opts.replay && opts.replay.size > 0 && settings.mode !== 'off') applyReplay(messages, diffs, opts.replay, copy);

  const prunableRows = prunable.map((k) => diffs[k] as ToolResultDiff);
  const keptBecause: KeptReason | undefined = !gate.open ? 'gate' : copy.total / charWindow < settings.softTrimRatio ? 'under-ratio' : undefined;
  if (keptBecause) {
    for (const d of prunableRows) if (d.action === 'kept') d.keptBecause = keptBecause;
  } else trimThenClear(prunableRows, settings, copy, charWindow);
  return summarise(messages, copy, diffs, gate, totalBefore, charWindow);
}
