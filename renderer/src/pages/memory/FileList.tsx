/**
 * The memory browser's file list: MEMORY.md, daily notes as a month calendar (days with a note
 * are buttons) plus a newest-first list, and the other notes.
 */
import type { MemoryFileInfo } from '../../../../shared/types/search';
import { memoryHref } from '../../stores/memory';
import { Calendar } from './Calendar';
import { useEffect, useRef } from 'react';

export function FileList({ files, selected }: { files: MemoryFileInfo[]; selected: string | undefined }) {
  const longTerm = files.filter((f) => f.kind === 'long-term');
  // Dreaming's phase reports (memory/dreaming/<phase>/YYYY-MM-DD.md) are dreaming's, not daily notes.
  const isDreaming = (f: MemoryFileInfo) => f.path.startsWith('memory/dreaming/');
  const daily = files.filter((f) => f.kind === 'daily' && f.date && !isDreaming(f)).sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
  const notes = files.filter((f) => (f.kind === 'note' || f.kind === 'extra') && !isDreaming(f)).sort((a, b) => a.path.localeCompare(b.path));
  const dreaming = files.filter(isDreaming).sort((a, b) => b.path.localeCompare(a.path));
  const dailyList = useRef<HTMLUListElement>(null);
  // A file opened from elsewhere (a search hit): bring it into view in the scrolled daily list.
  useEffect(() => {
    dailyList.current?.querySelector('a.active')?.scrollIntoView({ block: 'nearest' });
  }, [selected, files]);
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
          <ul className="mem-daily" aria-label="Daily notes by date" ref={dailyList}>
            {daily.map((f) => item(f, f.date ?? f.path))}
          </ul>
        </>
      ) : (
        <p className="muted">No daily notes yet: the assistant writes memory/YYYY-MM-DD.md during a memory flush.</p>
      )}
      <h2>Notes</h2>
      {notes.length ? <ul>{notes.map((f) => item(f, f.path.replace(/^memory\//, '')))}</ul> : <p className="muted">No other notes.</p>}
      {dreaming.length > 0 && (
        <>
          <h2>Written by dreaming</h2>
          <ul aria-label="Dreaming's phase reports">{dreaming.map((f) => item(f, f.path.replace(/^memory\/dreaming\//, '')))}</ul>
        </>
      )}
    </nav>
  );
}
