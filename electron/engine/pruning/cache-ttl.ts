/**
 * The TTL gate of pruning (SPEC §3): prune only when the provider's prompt cache for this
 * session+model has expired. The last call time is the newest `custom` entry
 * `openclaw.cache-ttl` (`data: {timestamp, provider, modelId}`) for that provider/model.
 */
import type { TtlGate } from '../../../shared/types/pruning';
import { durationMs } from '../config/schema';
import { isCustomEntry } from '../transcript/entries';
import type { Entry } from '../transcript/types';

export type { TtlGate };

export const CACHE_TTL_CUSTOM_TYPE = 'openclaw.cache-ttl';

export interface CacheTtlData {
  timestamp: number;
  provider?: string;
  modelId?: string;
}

const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');

/**
 * The newest `openclaw.cache-ttl` timestamp (epoch ms) matching `model` (case-insensitive;
 * an absent provider or modelId matches any), or undefined when there is none.
 */
export function findLastCallAt(entries: readonly Entry[], model: { provider?: string; modelId?: string } = {}): number | undefined {
  const wantProvider = norm(model.provider);
  const wantModel = norm(model.modelId);
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i] as Entry;
    if (!isCustomEntry(e) || e.customType !== CACHE_TTL_CUSTOM_TYPE) continue;
    const d = e.data as Partial<CacheTtlData> | undefined;
    if (wantProvider && norm(d?.provider) !== wantProvider) continue;
    if (wantModel && norm(d?.modelId) !== wantModel) continue;
    if (typeof d?.timestamp === 'number' && Number.isFinite(d.timestamp) && d.timestamp > 0) return d.timestamp;
  }
  return undefined;
}

/** The model a session talks to now: the newest `model_change`, else the newest assistant message's. */
export function currentModel(entries: readonly Entry[]): { provider?: string; modelId?: string } {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i] as Entry;
    if (e.type === 'model_change' && typeof e.modelId === 'string') return { provider: e.provider as string, modelId: e.modelId };
    if (e.type === 'message') {
      const m = e.message as { role?: string; provider?: unknown; model?: unknown };
      if (m?.role === 'assistant' && typeof m.model === 'string') return { provider: m.provider as string, modelId: m.model };
    }
  }
  return {};
}

/**
 * Decide the TTL gate. No recorded call means no cache to protect, but nothing to gain either: closed (as OpenClaw).
 * `routeEligible: false` (a route that records projection markers but never a call marker,
 * see replay.ts) names that as the reason instead of "no call recorded".
 */
export function ttlGate(mode: 'cache-ttl' | 'off', ttl: string, now: number, lastCallAt: number | undefined, routeEligible = true): TtlGate {
  const ttlMs = durationMs(ttl);
  const base = { mode, ttlMs, lastCallAt, now };
  if (mode === 'off') return { ...base, open: false, reason: 'off' };
  if (lastCallAt === undefined && !routeEligible) return { ...base, open: false, reason: 'route-not-eligible' };
  if (lastCallAt === undefined || ttlMs <= 0) return { ...base, open: false, reason: 'no-cache-touch' };
  if (now - lastCallAt < ttlMs) return { ...base, open: false, reason: 'ttl-not-expired' };
  return { ...base, open: true, reason: 'ttl-expired' };
}
