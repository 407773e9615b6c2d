/**
 * The benchmarks' one set of statistics and timers, so that every table's "median" and "p95"
 * mean the same thing: nearest-rank quantiles (the smallest sample with at least p of the
 * samples at or below it; a median of an even count is the lower middle one), wall time
 * from `performance.now()` and CPU time as the process's user + system time (all threads).
 */

/** The nearest-rank `p`-quantile (0..1) of `xs`, which need not be sorted; NaN when empty. */
export function quantile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/** The median of `xs` (nearest rank). */
export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
}

/** CPU milliseconds (user + system) of a `process.cpuUsage()` reading or difference. */
export function cpuMs(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1000;
}

/** What one timed call cost: wall and process CPU milliseconds, and what it returned. */
export interface Timed<T> {
  value: T;
  wallMs: number;
  cpuMs: number;
}

/** Run `fn` once and measure its wall and process CPU time. */
export async function timed<T>(fn: () => T | Promise<T>): Promise<Timed<T>> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wallMs = performance.now() - t0;
  return { value, wallMs, cpuMs: cpuMs(process.cpuUsage(c0)) };
}

/** Run `fn` once, synchronously, and measure its wall and process CPU time. */
export function timedSync<T>(fn: () => T): Timed<T> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const wallMs = performance.now() - t0;
  return { value, wallMs, cpuMs: cpuMs(process.cpuUsage(c0)) };
}
