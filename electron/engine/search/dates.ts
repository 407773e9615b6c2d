/**
 * Relative dates in a query (dates as first-class data). "what did I decide last
 * week about X" names a time span the words cannot match: BM25 sees "week" and the vectors a
 * vague direction. The span is resolved to note days against an anchor — the request's
 * `--before` when given (the day the question is asked "from"), else now — and chunks whose
 * day lies in it are preferred (a score boost, never a filter: a note filed on the wrong day
 * must still be findable).
 */

const DAY_MS = 86_400_000;

/** A resolved span: inclusive `since`, exclusive `before` (YYYY-MM-DD), and the words matched. */
export interface DateSpan {
  since: string;
  before: string;
  phrase: string;
}

const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/** UTC midnight of the anchor's day. */
function dayStart(d: Date): number {
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

const UNITS: Record<string, number> = { day: 1, days: 1, week: 7, weeks: 7 };
const NUMBERS: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, ten: 10 };

/**
 * The span a query's relative date names, or null: `yesterday`, `today`, `last/this week`
 * (ISO weeks, Monday first), `last/this month`, `last/this year`, `N days/weeks ago`.
 */
export function relativeSpan(query: string, anchor: Date): DateSpan | null {
  const q = query.toLowerCase();
  const today = dayStart(anchor);
  const span = (since: number, before: number, phrase: string): DateSpan => ({ since: iso(since), before: iso(before), phrase });
  let m: RegExpExecArray | null;
  if ((m = /\byesterday\b/.exec(q))) return span(today - DAY_MS, today, m[0]);
  if ((m = /\btoday\b/.exec(q))) return span(today, today + DAY_MS, m[0]);
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  if ((m = /\b(last|past|previous) week\b/.exec(q))) return span(monday - 7 * DAY_MS, monday, m[0]);
  if ((m = /\bthis week\b/.exec(q))) return span(monday, today + DAY_MS, m[0]);
  const a = new Date(today);
  const y = a.getUTCFullYear();
  const mo = a.getUTCMonth();
  if ((m = /\b(last|past|previous) month\b/.exec(q))) return span(Date.UTC(y, mo - 1, 1), Date.UTC(y, mo, 1), m[0]);
  if ((m = /\bthis month\b/.exec(q))) return span(Date.UTC(y, mo, 1), today + DAY_MS, m[0]);
  if ((m = /\b(last|past|previous) year\b/.exec(q))) return span(Date.UTC(y - 1, 0, 1), Date.UTC(y, 0, 1), m[0]);
  if ((m = /\b(\d{1,3}|a|one|two|three|four|five|six|seven|ten) (days?|weeks?) ago\b/.exec(q))) {
    const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : NUMBERS[m[1]!]!;
    const back = n * UNITS[m[2]!]!;
    // "3 days ago" is one day; "2 weeks ago" the week around that day.
    const at = today - back * DAY_MS;
    return UNITS[m[2]!] === 1 ? span(at, at + DAY_MS, m[0]) : span(at - 3 * DAY_MS, at + 4 * DAY_MS, m[0]);
  }
  return null;
}

/**
 * Score multiplier of a chunk inside the query's span (measured: docs/benchmarks.md — 1.5 → 2
 * with written-out dates: LoCoMo temporal 0.939 → 0.945, committed eval temporal MRR 0.813 → 0.875).
 */
export const SPAN_BOOST = 2;

/** The multiplier for a chunk dated `day` (1 outside the span or undated). */
export function spanBoost(day: string | null, span: DateSpan | null, boost = SPAN_BOOST): number {
  if (!span || !day) return 1;
  return day >= span.since && day < span.before ? boost : 1;
}
