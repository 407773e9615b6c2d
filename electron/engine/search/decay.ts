/**
 * Temporal decay (SPEC §7): `score × exp(−ln2 / halfLifeDays × ageDays)`. Age comes from the
 * chunk's day (file-name date, else message date, else mtime); MEMORY.md and undated memory
 * notes are evergreen. A date in the future counts as age 0: decay never boosts.
 */

const DAY_MS = 86_400_000;

export interface DecayInput {
  /** YYYY-MM-DD */
  day: string | null;
  evergreen: boolean;
  /** File mtime (ms), used when there is no day. */
  mtime: number;
}

/** Age in days of `day` (UTC midnight) at `now`; ≥ 0. */
export function ageDays(day: string | null, mtime: number, now: Date): number {
  const t = day ? Date.parse(`${day}T00:00:00Z`) : mtime;
  if (!Number.isFinite(t)) return 0;
  return Math.max(0, (now.getTime() - t) / DAY_MS);
}

/** The decay multiplier in 0..1 (1 for evergreen chunks). */
export function decayMultiplier(input: DecayInput, halfLifeDays: number, now: Date): number {
  if (input.evergreen || !(halfLifeDays > 0)) return 1;
  return Math.exp((-Math.LN2 / halfLifeDays) * ageDays(input.day, input.mtime, now));
}
