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

const ms = (v: number | Date | undefined) => (v instanceof Date ? v.getTime() : v);

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

/** Prune `messages` per `settings`; see SPEC §3 for the rules. */
export function prune(messages: readonly Message[], settings: ContextPruningSettings, opts: PruneOptions): PruneResult {
  let gate = ttlGate(settings.mode, settings.ttl, ms(opts.now) ?? Date.now(), ms(opts.lastCallAt), opts.routeEligible ?? true);
  if (opts.ignoreTtl && settings.mode !== 'off' && !gate.open) gate = { ...gate, open: true, reason: 'ttl-ignored' };
  const charWindow = Math.max(1, opts.contextWindowTokens * 4);
  const weights = messages.map(messageWeight);
  let total = 0;
  for (const w of weights) total += w;
  const totalBefore = total;

  // Protection boundaries.
  let cutoff = -1; // index of the keepLastAssistants-th newest assistant; results at or after it are protected
  if (settings.keepLastAssistants <= 0) cutoff = messages.length;
  else {
    let left = settings.keepLastAssistants;
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]?.role === 'assistant' && --left === 0) {
        cutoff = i;
        break;
      }
    }
  }
  const firstUser = messages.findIndex((m) => m.role === 'user');
  const isPrunableTool = toolPrunablePredicate(settings.tools);

  const diffs: ToolResultDiff[] = [];
  const prunable: number[] = []; // indices into diffs
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role !== 'toolResult') continue;
    const d: ToolResultDiff = {
      index: i,
      toolName: m.toolName,
      toolCallId: m.toolCallId,
      action: 'kept',
      charsBefore: weights[i] as number,
      charsAfter: weights[i] as number,
    };
    const id = opts.entryIds?.[i];
    if (id !== undefined) d.entryId = id;
    if (cutoff < 0) d.keptBecause = 'few-assistants';
    else if (i >= cutoff) d.keptBecause = 'recent';
    else if (firstUser < 0 || i < firstUser) d.keptBecause = 'before-first-user';
    else if (!isPrunableTool(m.toolName)) d.keptBecause = 'tool-not-prunable';
    else prunable.push(diffs.length);
    diffs.push(d);
  }

  const out = messages.slice();
  const placeholder = settings.hardClear.placeholder;
  const placeholderChars = weightedLength(placeholder);
  /** Soft-trim one result (its images removed first); false when nothing changed. */
  const softTrim = (d: ToolResultDiff): boolean => {
    const { m, removed } = withoutImages(out[d.index] as ToolResultMessage);
    const parts = joinedText(m);
    const trimmed = softTrimText(parts, settings.softTrim);
    if (trimmed === undefined && removed === 0) return false;
    let next = m;
    if (trimmed !== undefined) next = { ...m, content: [{ type: 'text', text: trimmed } satisfies TextBlock] };
    // A result without CJK or images has weight == length, and so has every piece of it.
    const plainLength = parts.reduce((n, p) => n + p.length, 0);
    const after = trimmed === undefined ? messageWeight(next) : removed === 0 && d.charsBefore === plainLength ? trimmed.length : weightedLength(trimmed);
    out[d.index] = next;
    total += after - d.charsAfter;
    d.action = 'soft-trimmed';
    d.charsAfter = after;
    if (removed > 0) d.imagesRemoved = removed;
    delete d.keptBecause;
    return true;
  };
  const clear = (d: ToolResultDiff) => {
    const m = out[d.index] as ToolResultMessage;
    out[d.index] = { ...m, content: [{ type: 'text', text: placeholder }] };
    total += placeholderChars - d.charsAfter;
    d.action = 'cleared';
    d.charsAfter = placeholderChars;
    delete d.imagesRemoved;
    delete d.keptBecause;
  };

  // OpenClaw's replay first: what it recorded pruning is pruned again on every call.
  if (opts.replay && opts.replay.size > 0 && settings.mode !== 'off') {
    for (const d of diffs) {
      const m = messages[d.index] as ToolResultMessage;
      const key = toolResultKey(m.toolCallId, m.timestamp);
      const mode = key === undefined ? undefined : opts.replay.get(key);
      if (mode === undefined) continue;
      if (mode === 'hard') clear(d);
      else if (!softTrim(d)) continue;
      d.replayed = mode;
    }
  }

  const finish = (): PruneResult => {
    let softTrimmed = 0;
    let cleared = 0;
    let replayed = 0;
    for (const d of diffs) {
      if (d.action === 'soft-trimmed') softTrimmed++;
      else if (d.action === 'cleared') cleared++;
      if (d.replayed) replayed++;
    }
    return {
      messages: softTrimmed + cleared > 0 ? out : (messages as Message[]),
      diff: {
        gate,
        changed: softTrimmed + cleared > 0,
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
  };
  const keepAll = (why: KeptReason) => {
    for (const k of prunable) {
      const d = diffs[k] as ToolResultDiff;
      if (d.action === 'kept') d.keptBecause = why;
    }
    return finish();
  };

  if (!gate.open) return keepAll('gate');
  if (total / charWindow < settings.softTrimRatio) return keepAll('under-ratio');

  // Step 3: soft trim (images in prunable results removed, SPEC §3 step 2).
  for (const k of prunable) {
    const d = diffs[k] as ToolResultDiff;
    if (d.action !== 'kept') continue; // already pruned by the replay
    if (!softTrim(d)) d.keptBecause = 'small';
  }

  // Step 4: hard clear, oldest first, until the ratio drops below hardClearRatio.
  if (!settings.hardClear.enabled || total / charWindow < settings.hardClearRatio) return finish();
  let prunableChars = 0;
  for (const k of prunable) prunableChars += (diffs[k] as ToolResultDiff).charsAfter;
  if (prunableChars < settings.minPrunableToolChars) return finish();
  for (const k of prunable) {
    if (total / charWindow < settings.hardClearRatio) break;
    const d = diffs[k] as ToolResultDiff;
    if (d.action === 'cleared') continue;
    clear(d);
    delete d.replayed;
  }
  return finish();
}
