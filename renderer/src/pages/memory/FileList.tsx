/**
 * The memory browser's file list: MEMORY.md, daily notes as a month calendar (days with a note
 * are buttons) plus a newest-first list, and the other notes.
 */
import { useMemo, useState } from 'react';
import type { MemoryFileInfo } from '../../../../shared/types/search';
import { memoryHref } from '../../stores/memory';

const WEEKDAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];

function monthOf(date: string): string {
  return date.slice(0, 7);
}

function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(y, m - 1 + by, 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

function Calendar({ daily, selected }: { daily: MemoryFileInfo[]; selected: string | undefined }) {
  const byDate = useMemo(() => new Map(daily.map((f) => [f.date as string, f])), [daily]);
  const newest = daily[0]?.date ?? undefined;
  const selectedDate = daily.find((f) => f.path === selected)?.date ?? undefined;
  const [month, setMonth] = useState(() => monthOf(selectedDate ?? newest ?? new Date().toISOString().slice(0, 10)));
  const [y, m] = month.split('-').map(Number) as [number, number];
  const first = new Date(y, m - 1, 1);
  const lead = (first.getDay() + 6) % 7; // Monday first
  const days = new Date(y, m, 0).getDate();
  const cells: (number | undefined)[] = [...Array<undefined>(lead).fill(undefined), ...Array.from({ length: days }, (_, i) => i + 1)];
  const label = first.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
  return (
    <div className="cal" aria-label="Daily notes calendar">
      <div className="cal-head">
        <button type="button" aria-label="Previous month" onClick={() => setMonth(shiftMonth(month, -1))}>
          ‹
        </button>
        <span aria-live="polite">{label}</span>
        <button type="button" aria-label="Next month" onClick={() => setMonth(shiftMonth(month, 1))}>
          ›
        </button>
      </div>
      <div className="cal-grid" role="grid">
        {WEEKDAYS.map((d) => (
          <span key={d} className="cal-wd" aria-hidden="true">
            {d}
          </span>
        ))}
        {cells.map((day, i) => {
          if (!day) return <span key={`e${i}`} />;
          const date = `${month}-${String(day).padStart(2, '0')}`;
          const f = byDate.get(date);
          if (!f) return <span key={date} className="cal-day cal-none">{day}</span>;
          return (
            <a key={date} href={memoryHref(f.path)} className={`cal-day cal-has${f.path === selected ? ' active' : ''}`} aria-label={`Daily note ${date}`}>
              {day}
            </a>
          );
        })}
      </div>
    </div>
  );
}

export function FileList({ files, selected }: { files: MemoryFileInfo[]; selected: string | undefined }) {
  const longTerm = files.filter((f) => f.kind === 'long-term');
  const daily = files.filter((f) => f.kind === 'daily' && f.date).sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
  const notes = files.filter((f) => f.kind === 'note' || f.kind === 'extra').sort((a, b) => a.path.localeCompare(b.path));
  const item = (f: MemoryFileInfo, label = f.path) => (
    <li key={f.path}>
      <a href={memoryHref(f.path)} className={f.path === selected ? 'active' : undefined} aria-current={f.path === selected ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
  return (
    <nav className="mem-files" aria-label="Memory files">
      <h2>Long-term</h2>
      {longTerm.length ? <ul>{longTerm.map((f) => item(f))}</ul> : <p className="muted">No MEMORY.md yet.</p>}
      <h2>Daily notes</h2>
      {daily.length ? (
        <>
          <Calendar daily={daily} selected={selected} />
          <ul className="mem-daily" aria-label="Daily notes by date">
            {daily.map((f) => item(f, f.date ?? f.path))}
          </ul>
        </>
      ) : (
        <p className="muted">No daily notes yet: the assistant writes memory/YYYY-MM-DD.md during a memory flush.</p>
      )}
      <h2>Notes</h2>
      {notes.length ? <ul>{notes.map((f) => item(f, f.path.replace(/^memory\//, '')))}</ul> : <p className="muted">No other notes.</p>}
    </nav>
  );
}
