/**
 * Dreaming's own writing, readable (dreaming.reports / dreaming.report): the Dream Diary
 * (DREAMS.md), the phase reports `memory/dreaming/<phase>/YYYY-MM-DD.md`, and the blocks
 * dreaming manages inside daily notes, each linked to its lines. Also `DreamingBlocksNote`,
 * shown above a daily note that holds such blocks, so they read as dreaming's, not the user's.
 */
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import { memoryHref } from '../../stores/memory';
import type { DreamingReports as Reports, DreamingReportText, ManagedBlock } from '../../../../shared/types/dreaming';
import { RenderedView } from './MarkdownView';

const PHASE: Record<string, string> = { light: 'Light sleep', rem: 'REM sleep', deep: 'Deep sleep' };

export function DreamingReports() {
  const [reports, setReports] = useState<Reports | undefined>();
  const [open, setOpen] = useState<DreamingReportText | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    api['dreaming.reports']({}).then(
      (r) => live && setReports(r),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, []);
  const show = (path: string) => api['dreaming.report']({ path }).then(setOpen, (err: Error) => setError(err.message));
  if (error) return <p role="alert" className="error">Could not read dreaming&apos;s reports: {error}</p>;
  if (!reports) return <p className="muted">Looking for dreaming&apos;s reports…</p>;
  return (
    <div className="dream-layout" data-testid="dreaming-reports">
      <nav className="dream-timeline" aria-label="Dreaming's reports">
        {reports.files.length === 0 && <p className="muted">No Dream Diary or phase reports in this workspace yet.</p>}
        <ul>
          {reports.files.map((f) => (
            <li key={f.path}>
              <button type="button" className={open?.path === f.path ? 'active' : undefined} onClick={() => void show(f.path)}>
                {f.kind === 'diary' ? 'Dream Diary (DREAMS.md)' : `${PHASE[f.phase ?? ''] ?? f.phase} — ${f.date}`}
              </button>
            </li>
          ))}
        </ul>
        {reports.managedBlocks.length > 0 && (
          <>
            <h3>Written by dreaming into daily notes</h3>
            <ul>
              {reports.managedBlocks.map((b) => (
                <li key={`${b.path}:${b.startLine}`}>
                  <a href={memoryHref(b.path, { from: b.startLine, to: b.endLine })}>
                    {b.path.replace(/^memory\//, '')} · {b.heading.replace(/^#+\s*/, '')}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
      </nav>
      <section className="dream-version" aria-label="Report">
        {open ? (
          <>
            <h2>{open.path}</h2>
            {open.truncated && <p className="muted">Only the first 2 MB are shown.</p>}
            <RenderedView text={open.text} range={undefined} />
          </>
        ) : (
          <p className="muted">Pick the diary or a report on the left. Dreaming writes them for people: they are never promoted into MEMORY.md.</p>
        )}
      </section>
    </div>
  );
}

/**
 * Above a daily note: which of its lines dreaming manages. The blocks' rendered lines are
 * marked in `view` (class `md-dreaming`) so they read apart from the user's own notes.
 */
export function DreamingBlocksNote({ path, text, view }: { path: string; text: string; view: React.RefObject<HTMLDivElement | null> }) {
  const [blocks, setBlocks] = useState<ManagedBlock[]>([]);
  const daily = /^memory\/\d{4}-\d{2}-\d{2}\.md$/.test(path);
  const hasMarker = text.includes('openclaw:dreaming:');
  useEffect(() => {
    if (!daily || !hasMarker) return setBlocks([]);
    let live = true;
    api['dreaming.reports']({}).then(
      (r) => live && setBlocks(r.managedBlocks.filter((b) => b.path === path)),
      () => live && setBlocks([]),
    );
    return () => {
      live = false;
    };
  }, [path, daily, hasMarker, text]);
  const marked = useRef<Element[]>([]);
  useEffect(() => {
    for (const el of marked.current) el.classList.remove('md-dreaming');
    marked.current = [];
    const root = view.current;
    if (!root) return;
    for (const el of root.querySelectorAll('[data-line]')) {
      const start = Number(el.getAttribute('data-line'));
      const end = Number(el.getAttribute('data-end') ?? start);
      if (blocks.some((b) => start <= b.endLine && end >= b.startLine)) {
        el.classList.add('md-dreaming');
        marked.current.push(el);
      }
    }
  });
  if (!blocks.length) return null;
  return (
    <p className="dream-blocks-note" role="note" data-testid="dreaming-blocks">
      Written by dreaming, not by you:{' '}
      {blocks.map((b, i) => (
        <span key={b.startLine}>
          {i > 0 && ', '}
          <a href={memoryHref(b.path, { from: b.startLine, to: b.endLine })}>
            {b.heading.replace(/^#+\s*/, '')} (lines {b.startLine}–{b.endLine})
          </a>
        </span>
      ))}
      . OpenClaw rewrites these blocks on each sweep.
    </p>
  );
}
