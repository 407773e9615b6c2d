/**
 * The evidence behind a dreaming candidate in plain terms: its recall-store row joined with
 * the recall log (the texts of the queries that returned it), the transcripts (which sessions
 * searched with those queries) and the phase signals; and why a candidate is not in MEMORY.md,
 * from the recorded counts against the thresholds OpenClaw's deep phase applies (the same
 * gates as `openclaw memory promote`: score, signals, distinct queries, age, origin).
 */
import type { CandidateStatus, RecallEvidence } from '../../../shared/types/dreaming';
import type { DreamingState, RecallRow } from './plugin-state';
import type { SearchCall } from './recall-sessions';

/** OpenClaw's deep-phase defaults (plugins.entries.memory-core.config.dreaming.phases.deep). */
export const DEFAULT_THRESHOLDS = { minScore: 0.75, minRecallCount: 3, minUniqueQueries: 3, maxAgeDays: 30, limit: 10 };
export type Thresholds = typeof DEFAULT_THRESHOLDS;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The thresholds in effect: OpenClaw's config where set, its defaults otherwise. */
export function thresholdsFrom(raw: unknown): Thresholds {
  const at = (o: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((v, k) => (isRecord(v) ? v[k] : undefined), o);
  const deep = at(raw, 'plugins', 'entries', 'memory-core', 'config', 'dreaming', 'phases', 'deep');
  const pick = (k: keyof Thresholds) => {
    const v = at(deep, k);
    return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : DEFAULT_THRESHOLDS[k];
  };
  return { minScore: pick('minScore'), minRecallCount: pick('minRecallCount'), minUniqueQueries: pick('minUniqueQueries'), maxAgeDays: pick('maxAgeDays'), limit: pick('limit') };
}

/** One candidate's evidence. */
export function evidenceOf(row: RecallRow, state: DreamingState, calls: SearchCall[]): RecallEvidence {
  const recallCount = num(row.recallCount);
  const queries = [
    ...new Set(
      state.events
        .filter((e) => e.type === 'memory.recall.recorded' && e.query && e.results.some((r) => r.path === row.path && r.startLine === row.startLine && r.endLine === row.endLine))
        .map((e) => e.query as string),
    ),
  ];
  const seen = new Set<string>();
  const sessions = calls
    .filter((c) => queries.includes(c.query) && !seen.has(`${c.sessionId}\0${c.query}`) && seen.add(`${c.sessionId}\0${c.query}`))
    .sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
  const prov = isRecord(row.provenance) ? row.provenance : {};
  const phase = state.phaseSignals.get(row.key);
  const signals = recallCount + num(row.dailyCount) + num(row.groundedCount);
  const ev: RecallEvidence = {
    key: row.key,
    path: row.path,
    startLine: row.startLine,
    endLine: row.endLine,
    snippet: typeof row.snippet === 'string' ? row.snippet : '',
    recallCount,
    dailyCount: num(row.dailyCount),
    groundedCount: num(row.groundedCount),
    uniqueQueries: strs(row.userQueryHashes).length,
    queries,
    recallDays: strs(row.recallDays),
    conceptTags: strs(row.conceptTags),
    sessions,
  };
  if (typeof row.firstRecalledAt === 'string') ev.firstRecalledAt = row.firstRecalledAt;
  if (typeof row.lastRecalledAt === 'string') ev.lastRecalledAt = row.lastRecalledAt;
  if (typeof row.maxScore === 'number') ev.maxScore = row.maxScore;
  if (typeof row.totalScore === 'number' && signals > 0) ev.avgScore = row.totalScore / signals;
  if (typeof row.promotedAt === 'string') ev.promotedAt = row.promotedAt;
  if (typeof prov.originClass === 'string') ev.originClass = prov.originClass;
  if (typeof prov.sessionKind === 'string') ev.sessionKind = prov.sessionKind;
  if (phase?.lightHits !== undefined) ev.lightHits = phase.lightHits;
  if (phase?.remHits !== undefined) ev.remHits = phase.remHits;
  return ev;
}

const times = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Why `ev` is not (yet) promoted, in plain words; empty when it is promoted. */
export function reasonsNotPromoted(ev: RecallEvidence, t: Thresholds, now: Date): string[] {
  if (ev.promotedAt) return [];
  const reasons: string[] = [];
  if (ev.originClass === 'untrusted' || ev.originClass === 'system') reasons.push(`Its text came from a ${ev.originClass} source: dreaming never promotes those.`);
  const signals = ev.recallCount + ev.dailyCount + ev.groundedCount;
  if (signals < t.minRecallCount) reasons.push(`Surfaced ${times(signals, 'time')}; dreaming needs ${t.minRecallCount} (minRecallCount).`);
  if (ev.uniqueQueries < t.minUniqueQueries) reasons.push(`Found by ${times(ev.uniqueQueries, 'distinct query', 'distinct queries')}; dreaming needs ${t.minUniqueQueries} (minUniqueQueries).`);
  const last = ev.lastRecalledAt ? Date.parse(ev.lastRecalledAt) : NaN;
  if (Number.isFinite(last) && (now.getTime() - last) / 86_400_000 > t.maxAgeDays) reasons.push(`Last recalled more than ${t.maxAgeDays} days ago (maxAgeDays).`);
  if (!reasons.length) {
    reasons.push(
      `Passes the count gates. A sweep promotes at most ${t.limit} (limit), highest weighted score first, and only from ${t.minScore} up; OpenClaw computes that score when it ranks: \`openclaw memory promote-explain "${ev.key}"\` shows it.`,
    );
  }
  return reasons;
}

/** Every candidate of the recall store with its evidence and status, most recalled first. */
export function candidateStatuses(state: DreamingState, calls: SearchCall[], t: Thresholds, now: Date): CandidateStatus[] {
  return state.recalls
    .map((row) => {
      const evidence = evidenceOf(row, state, calls);
      return { evidence, promoted: Boolean(evidence.promotedAt), reasons: reasonsNotPromoted(evidence, t, now) };
    })
    .sort((a, b) => b.evidence.recallCount - a.evidence.recallCount || a.evidence.key.localeCompare(b.evidence.key));
}
