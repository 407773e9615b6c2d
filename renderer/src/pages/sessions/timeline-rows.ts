/**
 * The timeline's rows: the session's entries with the lines that did not parse put back where
 * they are in the file, so a broken line is seen in place instead of silently
 * missing. Entries load in file order; a bad line waits until the entry after it has loaded
 * (or the session is complete) so it never lands in the wrong place.
 */
import type { MalformedLineView } from '../../../../shared/types/sessions';
import type { RawEntry } from './entry-types';

export type TimelineRow = { kind: 'entry'; index: number } | { kind: 'malformed'; bad: MalformedLineView };

/** Merge `malformed` (by line number) into the entry rows. */
export function timelineRows(entries: (RawEntry | undefined)[], malformed: MalformedLineView[], complete: boolean): TimelineRow[] {
  if (malformed.length === 0) return entries.map((_, index) => ({ kind: 'entry', index }));
  const bad = [...malformed].sort((a, b) => a.line - b.line);
  const rows: TimelineRow[] = [];
  let next = 0;
  let placing = true; // false after a still-loading entry: positions beyond it are unknown
  entries.forEach((e, index) => {
    if (!e) placing = false;
    else if (placing && e.$line !== undefined) {
      while (next < bad.length && (bad[next] as MalformedLineView).line < e.$line) rows.push({ kind: 'malformed', bad: bad[next++] as MalformedLineView });
    }
    rows.push({ kind: 'entry', index });
  });
  if (complete) while (next < bad.length) rows.push({ kind: 'malformed', bad: bad[next++] as MalformedLineView });
  return rows;
}
