/** Small formatters for the Sessions pages: numbers, sizes, relative times. */
import { localDateTime } from '../../../../shared/text/local-time';

const nf = new Intl.NumberFormat('en-US');

/** 12,345 */
export function num(n: number): string {
  return nf.format(Math.round(n));
}

/** 12.3k / 1.2M tokens, compact for meters and axes. */
export function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1_000) return `${(n / 1000).toFixed(1)}k`;
  return String(Math.round(n));
}

/** Percentage with one decimal below 10 %. */
export function pct(ratio: number): string {
  const p = ratio * 100;
  return `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

/** "3 min ago", "2 h ago", "4 d ago", or the local date for older times (the day {@link when} says). */
export function ago(ms: number | undefined, now = Date.now()): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  const s = Math.max(0, (now - ms) / 1000);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 30 * 86_400) return `${Math.floor(s / 86_400)} d ago`;
  return when(ms).slice(0, 10);
}

/** Local date and time of an ISO string or epoch ms, e.g. "2025-03-12 14:05:09" (shared/text/local-time.ts). */
export function when(t: string | number | undefined): string {
  if (t === undefined) return '';
  return localDateTime(t) ?? String(t);
}

/** Bytes as KB/MB. */
export function bytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}
