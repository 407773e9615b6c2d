/**
 * Dates written out in a query (dates as first-class data): "What movie did Joanna
 * watch on 1 May, 2022?", "Where did she travel in July 2022?". Daily notes carry their date
 * in the file name, so such a question names the notes to prefer. The span runs a little past
 * the named day or month: what happened on a day is usually written down that day or in the
 * next days' notes ("last night", "last week"), rarely before it.
 */
import { relativeSpan, type DateSpan } from './dates';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\\.?`;
const DAY_MS = 86_400_000;

/** Days after a named day (or after a named month's end) still inside its span. */
export const DATE_TRAIL_DAYS = 8;

const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

function monthIndex(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  return MONTHS.findIndex((m) => m === w || m.startsWith(w));
}

/** A real calendar day (UTC ms), or null ("31 February"). */
function day(y: number, m: number, d: number): number | null {
  const t = Date.UTC(y, m, d);
  const x = new Date(t);
  return x.getUTCFullYear() === y && x.getUTCMonth() === m && x.getUTCDate() === d ? t : null;
}

/**
 * The span of the first written-out date in `query`, or null: `1 May, 2022` / `May 1, 2022`
 * / `1st of May 2022` (the day, from the day before to {@link DATE_TRAIL_DAYS} after) and
 * `May 2022` (the month and its trail). A month without a year names no span: which year is
 * not known.
 */
export function absoluteSpan(query: string): DateSpan | null {
  const q = query.toLowerCase();
  const span = (since: number, before: number, phrase: string): DateSpan => ({ since: iso(since), before: iso(before), phrase });
  const dayFirst = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?(?: of)? ${MONTH},? ((?:19|20)\\d\\d)\\b`).exec(q);
  const monthFirst = new RegExp(`\\b${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? ((?:19|20)\\d\\d)\\b`).exec(q);
  const dated = [dayFirst && { m: dayFirst, d: dayFirst[1]!, mo: dayFirst[2]!, y: dayFirst[3]! }, monthFirst && { m: monthFirst, d: monthFirst[2]!, mo: monthFirst[1]!, y: monthFirst[3]! }]
    .filter((x) => x !== null)
    .sort((a, b) => a.m.index - b.m.index)[0];
  if (dated) {
    const t = day(Number(dated.y), monthIndex(dated.mo), Number(dated.d));
    if (t !== null) return span(t - DAY_MS, t + (DATE_TRAIL_DAYS + 1) * DAY_MS, dated.m[0]);
  }
  const month = new RegExp(`\\b${MONTH},? ((?:19|20)\\d\\d)\\b`).exec(q);
  if (month) {
    const y = Number(month[2]);
    const mo = monthIndex(month[1]!);
    return span(Date.UTC(y, mo, 1), Date.UTC(y, mo + 1, 1) + DATE_TRAIL_DAYS * DAY_MS, month[0]);
  }
  return null;
}

/**
 * The span a query names: a relative date ("last week", against the anchor: dates.ts), else
 * a date written out ("1 May, 2022", "July 2022"), else null.
 */
export function querySpan(query: string, anchor: Date): DateSpan | null {
  return relativeSpan(query, anchor) ?? absoluteSpan(query);
}
