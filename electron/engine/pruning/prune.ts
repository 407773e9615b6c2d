/**
 * Pruning (SPEC §3): trims or clears old tool results in the copy of the context sent to the
 * model, and says exactly what it did. Pure: returns new message objects for what changed
 * (sharing the rest), never touches the input or the file.
 */
import type { Message, TextBlock, ToolResultMessage } from '../../../shared/types/messages';
import type { ContextPruningSettings } from '../config/schema';
import type { KeptReason, PruneDiff, ToolResultDiff } from '../../../shared/types/pruning';
import { ttlGate } from './cache-ttl';
import { hasImage, messageWeight, weightedLength } from './chars';
import { toolPrunablePredicate } from './globs';

export type { PruneAction, KeptReason, ToolResultDiff, PruneDiff } from '../../../shared/types/pruning';

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
  let gate = ttlGate(settings.mode, settings.ttl, ms(opts.now) ?? Date.now(), ms(opts.lastCallAt));
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
    else if (hasImage(m.content)) d.keptBecause = 'image';
    else if (!isPrunableTool(m.toolName)) d.keptBecause = 'tool-not-prunable';
    else prunable.push(diffs.length);
    diffs.push(d);
  }

  const out = messages.slice();
  const finish = (): PruneResult => {
    let softTrimmed = 0;
    let cleared = 0;
    for (const d of diffs) {
      if (d.action === 'soft-trimmed') softTrimmed++;
      else if (d.action === 'cleared') cleared++;
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
        charsSaved: totalBefore - total,
        toolResults: diffs,
      },
    };
  };
  const keepAll = (why: KeptReason) => {
    for (const k of prunable) (diffs[k] as ToolResultDiff).keptBecause = why;
    return finish();
  };

  if (!gate.open) return keepAll('gate');
  if (total / charWindow < settings.softTrimRatio) return keepAll('under-ratio');

  // Step 3: soft trim.
  for (const k of prunable) {
    const d = diffs[k] as ToolResultDiff;
    const m = out[d.index] as ToolResultMessage;
    const parts = joinedText(m);
    const trimmed = softTrimText(parts, settings.softTrim);
    if (trimmed === undefined) {
      d.keptBecause = 'small';
      continue;
    }
    // A result without CJK has weight == length, and so has every piece of it.
    const plainLength = parts.reduce((n, p) => n + p.length, 0);
    const after = d.charsBefore === plainLength ? trimmed.length : weightedLength(trimmed);
    out[d.index] = { ...m, content: [{ type: 'text', text: trimmed } satisfies TextBlock] };
    total += after - d.charsBefore;
    d.action = 'soft-trimmed';
    d.charsAfter = after;
    delete d.keptBecause;
  }

  // Step 4: hard clear, oldest first, until the ratio drops below hardClearRatio.
  if (!settings.hardClear.enabled || total / charWindow < settings.hardClearRatio) return finish();
  let prunableChars = 0;
  for (const k of prunable) prunableChars += (diffs[k] as ToolResultDiff).charsAfter;
  if (prunableChars < settings.minPrunableToolChars) return finish();
  const placeholder = settings.hardClear.placeholder;
  const placeholderChars = weightedLength(placeholder);
  for (const k of prunable) {
    if (total / charWindow < settings.hardClearRatio) break;
    const d = diffs[k] as ToolResultDiff;
    const m = out[d.index] as ToolResultMessage;
    out[d.index] = { ...m, content: [{ type: 'text', text: placeholder }] };
    total += placeholderChars - d.charsAfter;
    d.action = 'cleared';
    d.charsAfter = placeholderChars;
    delete d.keptBecause;
  }
  return finish();
}
