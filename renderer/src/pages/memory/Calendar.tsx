/**
 * The daily-notes month calendar: an ARIA grid (rows of 7 gridcells under column headers)
 * with one tab stop and the arrow keys (←/→ a day, ↑/↓ a week, Home/End the week's ends,
 * PageUp/PageDown a month; crossing a month's edge turns the page). Days with a note are links
 * (Enter opens the note); their name keeps the visible day number first (axe
 * label-content-name-mismatch).
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { MemoryFileInfo } from '../../../../shared/types/search';
import { memoryHref } from '../../stores/memory';

const WEEKDAYS: [string, string][] = [
  ['Mo', 'Monday'],
  ['Tu', 'Tuesday'],
  ['We', 'Wednesday'],
  ['Th', 'Thursday'],
  ['Fr', 'Friday'],
  ['Sa', 'Saturday'],
  ['Su', 'Sunday'],
];

function ymd(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

function parse(date: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

function addDays(date: string, n: number): string {
  const d = parse(date);
  d.setDate(d.getDate() + n);
  return ymd(d);
}

function addMonths(date: string, n: number): string {
  const d = parse(date);
  const day = d.getDate();
  const t = new Date(d.getFullYear(), d.getMonth() + n, 1);
  t.setDate(Math.min(day, new Date(t.getFullYear(), t.getMonth() + 1, 0).getDate()));
  return ymd(t);
}

export function Calendar({ daily, selected }: { daily: MemoryFileInfo[]; selected: string | undefined }) {
  const byDate = useMemo(() => new Map(daily.map((f) => [f.date as string, f])), [daily]);
  const selectedDate = daily.find((f) => f.path === selected)?.date ?? undefined;
  const [focus, setFocus] = useState(() => selectedDate ?? daily[0]?.date ?? ymd(new Date()));
  const keyMoved = useRef(false);
  const grid = useRef<HTMLDivElement>(null);
  // Follow the open note (a search hit or the list below opened another day).
  useEffect(() => {
    if (selectedDate) setFocus(selectedDate);
  }, [selectedDate]);
  useEffect(() => {
    if (!keyMoved.current) return;
    keyMoved.current = false;
    grid.current?.querySelector<HTMLElement>(`[data-date="${focus}"]`)?.focus();
  }, [focus]);

  const month = focus.slice(0, 7);
  const first = parse(`${month}-01`);
  const lead = (first.getDay() + 6) % 7; // Monday first
  const days = new Date(first.getFullYear(), first.getMonth() + 1, 0).getDate();
  const cells: (string | undefined)[] = [...Array<undefined>(lead).fill(undefined), ...Array.from({ length: days }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`)];
  while (cells.length % 7) cells.push(undefined);
  const weeks = Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
  const label = first.toLocaleDateString('en-US', { month: 'long', year: 'numeric' }) // in the language of the weekdays beside it;

  function onKey(e: KeyboardEvent) {
    const dow = (parse(focus).getDay() + 6) % 7;
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(focus, -1),
      ArrowRight: () => addDays(focus, 1),
      ArrowUp: () => addDays(focus, -7),
      ArrowDown: () => addDays(focus, 7),
      Home: () => addDays(focus, -dow),
      End: () => addDays(focus, 6 - dow),
      PageUp: () => addMonths(focus, -1),
      PageDown: () => addMonths(focus, 1),
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    keyMoved.current = true;
    setFocus(move());
  }

  return (
    <div className="cal" role="group" aria-label="Daily notes calendar">
      <div className="cal-head">
        <button type="button" aria-label="Previous month" onClick={() => setFocus(addMonths(focus, -1))}>
          ‹
        </button>
        <span aria-live="polite">{label}</span>
        <button type="button" aria-label="Next month" onClick={() => setFocus(addMonths(focus, 1))}>
          ›
        </button>
      </div>
      <div ref={grid} className="cal-grid" role="grid" aria-label={`Daily notes, ${label} (arrow keys move, Enter opens)`} onKeyDown={onKey}>
        <div role="row" className="cal-row">
          {WEEKDAYS.map(([short, long]) => (
            <span key={short} role="columnheader" className="cal-wd" title={long}>
              {short}
            </span>
          ))}
        </div>
        {weeks.map((week, w) => (
          <div role="row" className="cal-row" key={w}>
            {week.map((date, i) => {
              if (!date) return <span key={`e${i}`} role="gridcell" />;
              const f = byDate.get(date);
              const day = Number(date.slice(8));
              const tab = date === focus ? 0 : -1;
              return (
                <span key={date} role="gridcell" aria-selected={f ? f.path === selected : undefined}>
                  {f ? (
                    <a href={memoryHref(f.path)} data-date={date} tabIndex={tab} onFocus={() => setFocus(date)} className={`cal-day cal-has${f.path === selected ? ' active' : ''}`}>
                      {day}
                      <span className="sr-only"> Daily note {date}</span>
                    </a>
                  ) : (
                    <span data-date={date} tabIndex={tab} onFocus={() => setFocus(date)} className="cal-day cal-none">
                      {day}
                      <span className="sr-only"> no note</span>
                    </span>
                  )}
                </span>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
