/**
 * A search request (contract shape) + the agent's settings → the hybrid pipeline's options,
 * with per-request overrides (maxResults, minScore, source, dates, decay, MMR, explain).
 */
import type { MemorySearchSettings } from '../config/schema';
import type { MemorySource, SearchResponse } from '../../../shared/types/search';
import { hybridSearch, type HybridBackend } from './hybrid';
import { resolveWeights } from './score';
import { querySpan } from './query-dates';
import type { SearchRequest } from '../core/search-backend';
import { SUGGESTION_TEXT } from '../config/suggestions';
import { localDateTime } from '../../../shared/text/local-time';

/** Which sources a request searches: `all` = every enabled source. */
export function requestSources(req: SearchRequest, settings: MemorySearchSettings): MemorySource[] {
  const enabled = settings.sources as MemorySource[];
  if (!req.source || req.source === 'all') return enabled;
  return [req.source];
}

/** `now`'s calendar day (YYYY-MM-DD) in the system's time zone. */
const localDay = (now: Date): string => localDateTime(now)!.slice(0, 10);

export async function runSearch(
  backend: HybridBackend,
  settings: MemorySearchSettings,
  req: SearchRequest,
  now: Date,
): Promise<Omit<SearchResponse, 'embedder' | 'tookMs'>> {
  const q = settings.query;
  const h = q.hybrid;
  const sources = requestSources(req, settings);
  const warnings: string[] = [];
  if (req.source === 'sessions' && !settings.sources.includes('sessions')) {
    warnings.push(SUGGESTION_TEXT.sessionsSource());
  }
  if (req.since && req.before && req.since >= req.before) {
    warnings.push(`--since ${req.since} is not before --before ${req.before}: nothing can match`);
  }
  const out = await hybridSearch(backend, {
    query: req.query,
    maxResults: req.maxResults ?? q.maxResults,
    minScore: req.minScore ?? q.minScore,
    candidateMultiplier: h.candidateMultiplier,
    hybrid: h.enabled,
    weights: resolveWeights(h, backend.embedder?.provider ?? null),
    calibration: h.calibration,
    stemWeight: h.stemWeight,
    spread: h.spread,
    ranges: h.ranges,
    // "last week" counts back from --before when given (the question is asked from then),
    // else from the local calendar day: daily notes are named by it, not by UTC's day.
    span: h.relativeDates ? querySpan(req.query, new Date(`${req.before ?? localDay(now)}T00:00:00Z`)) : null,
    sources,
    since: req.since,
    before: req.before,
    decay: { enabled: req.decay ?? h.temporalDecay.enabled, halfLifeDays: h.temporalDecay.halfLifeDays },
    mmr: { enabled: req.mmr ?? h.mmr.enabled, lambda: h.mmr.lambda },
    explain: req.explain ?? false,
    now,
    signal: req.signal,
    annotations: { trigger: req.trigger, project: req.project, importanceMin: req.importanceMin },
    packLines: req.packLines,
  });
  return { results: out.results, mode: out.mode, warnings: [...warnings, ...out.warnings] };
}
