/**
 * OpenClaw's pruning replay. OpenClaw 2026.9 writes two kinds of
 * `custom:openclaw.cache-ttl` entries: a timestamped "model call" marker
 * (`{timestamp, provider, modelId}`, Anthropic-wire routes only) and, before every call on
 * every route, a *projection* marker without a timestamp
 * (`{prunedToolResults: [{key, mode}], ambiguousToolResultBaseKeys, frozenToolResults}`).
 * Once a pruning round has trimmed or cleared a tool result, OpenClaw lists it in
 * `prunedToolResults` and applies the same pruning on every later call (so the prompt
 * cache written after the round stays valid). What the model is sent next is therefore
 * the on-disk message with the recorded pruning replayed, whatever the TTL gate says.
 *
 * Keys are `tool:<toolCallId>:<tool result timestamp ms>`; OpenClaw writes the call id
 * raw in the marker that first freezes a result and without non-alphanumerics in later
 * ones (`tool:toolu_fake_1:…` then `tool:toolufake1:…`), so both are matched here.
 */
import { isCustomEntry } from '../transcript/entries';
import type { Entry } from '../transcript/types';
import type { ReplayMode } from '../../../shared/types/pruning';
import { CACHE_TTL_CUSTOM_TYPE } from './cache-ttl';

/** How OpenClaw pruned a tool result: "soft" = soft trim, "hard" = cleared to the placeholder. */
export type { ReplayMode };

/** One recorded pruning of a tool result, replayed on later calls. */
export interface ReplayRecord {
  key: string;
  mode: ReplayMode;
}

/** The projection marker a session's next call replays, as found in the transcript. */
export interface ProjectionState {
  /** Entry id of the newest projection marker. */
  entryId: string | undefined;
  /** Normalised key → mode. */
  pruned: Map<string, ReplayMode>;
  /** How many tool results OpenClaw had frozen (cache-stable) at that marker. */
  frozen: number;
}

/** True for a projection marker (an `openclaw.cache-ttl` entry carrying `prunedToolResults`, no timestamp). */
export function isProjectionMarker(e: Entry): boolean {
  if (!isCustomEntry(e) || e.customType !== CACHE_TTL_CUSTOM_TYPE) return false;
  const d = e.data as Record<string, unknown> | undefined;
  return typeof d === 'object' && d !== null && Array.isArray(d.prunedToolResults) && typeof d.timestamp !== 'number';
}

/** A key with the call id's non-alphanumerics dropped, so both spellings OpenClaw writes compare equal. */
function normKey(key: string): string {
  const m = /^tool:(.*):(\d+)$/.exec(key);
  if (!m) return key;
  return `tool:${(m[1] as string).replace(/[^A-Za-z0-9]/g, '')}:${m[2] as string}`;
}

/** The replay key of a tool result, or undefined when it carries no usable timestamp. */
export function toolResultKey(toolCallId: string, timestamp: unknown): string | undefined {
  const ms = typeof timestamp === 'number' ? timestamp : typeof timestamp === 'string' ? Date.parse(timestamp) : NaN;
  if (!Number.isFinite(ms)) return undefined;
  return normKey(`tool:${toolCallId}:${Math.trunc(ms)}`);
}

/**
 * The newest projection marker of `entries` (the replay OpenClaw applies on its next call),
 * or undefined when the session has none (a Cairn session, or OpenClaw before 2026.9).
 */
export function findProjection(entries: readonly Entry[]): ProjectionState | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i] as Entry;
    if (!isProjectionMarker(e)) continue;
    const d = e.data as { prunedToolResults: unknown[]; frozenToolResults?: unknown };
    const pruned = new Map<string, ReplayMode>();
    for (const r of d.prunedToolResults) {
      const rec = r as Partial<ReplayRecord> | null;
      if (typeof rec?.key !== 'string') continue;
      // An unknown mode is replayed as the stronger one: OpenClaw did prune the result.
      pruned.set(normKey(rec.key), rec.mode === 'soft' ? 'soft' : 'hard');
    }
    return { entryId: e.id, pruned, frozen: Array.isArray(d.frozenToolResults) ? d.frozenToolResults.length : 0 };
  }
  return undefined;
}

/** True when the session has projection markers but never a timestamped call marker for any model. */
export function hasOnlyProjectionMarkers(entries: readonly Entry[]): boolean {
  let projection = false;
  for (const e of entries) {
    if (!isCustomEntry(e) || e.customType !== CACHE_TTL_CUSTOM_TYPE) continue;
    if (isProjectionMarker(e)) projection = true;
    else if (typeof (e.data as { timestamp?: unknown } | undefined)?.timestamp === 'number') return false;
  }
  return projection;
}
