/**
 * A big memory file as numbered source in a virtual list (@tanstack/react-virtual): only the
 * lines in view are in the DOM, so a 6 MB note opens at once and scrolls freely. Home/End go
 * through the virtualiser; the cited range is scrolled into view and highlighted. Small files
 * keep the plain views (everything in the DOM, so the browser's find sees it all).
 */
import { useEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { LineRange } from '../../stores/memory';
import { num } from '../sessions/format';

/** Above this a file is shown as virtualised source (Markdown rendering would build every block). */
const BIG_CHARS = 300_000;

/** True when `text` is too big to render as Markdown or as one DOM node per line. */
export function isBigText(text: string): boolean {
  return text.length > BIG_CHARS;
}

/**
 * The lines of the last big text split: switching between the rendered and the source view
 * mounts a new BigSourceView on the same text, and splitting 6 MB again is a long task.
 */
let lastSplit: { text: string; lines: string[] } | undefined;
function linesOf(text: string): string[] {
  if (lastSplit?.text !== text) lastSplit = { text, lines: text.replace(/\n$/, '').split('\n') };
  return lastSplit.lines;
}

function kb(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(0)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Numbered source of a big file; `note` says why it is not rendered as Markdown. */
export function BigSourceView({ text, range, note = false }: { text: string; range: LineRange | undefined; note?: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  const lines = useMemo(() => linesOf(text), [text]);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => ref.current,
    estimateSize: () => 18,
    overscan: 20,
  });
  useEffect(() => {
    if (range) virtualizer.scrollToIndex(Math.max(0, range.from - 1), { align: 'center' });
  }, [range, virtualizer]);
  const width = String(lines.length).length;
  return (
    <>
      {note && (
        <p className="muted" role="note" data-testid="memory-big-note">
          This file is large ({kb(text.length)}, {num(lines.length)} lines), so it is shown as source to keep the window responsive.
        </p>
      )}
      <div
        ref={ref}
        className="src-virtual"
        role="list"
        aria-label="Source with line numbers (Home/End: first/last line)"
        data-testid="memory-source"
        tabIndex={0}
        onKeyDown={(ev) => {
          if (ev.key !== 'Home' && ev.key !== 'End') return;
          ev.preventDefault();
          virtualizer.scrollToIndex(ev.key === 'Home' ? 0 : lines.length - 1, { align: ev.key === 'Home' ? 'start' : 'end' });
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const n = item.index + 1;
            const hit = range && n >= range.from && n <= range.to;
            return (
              <div
                key={item.key}
                role="listitem"
                data-index={item.index}
                data-line={n}
                ref={virtualizer.measureElement}
                className={`src-vline${hit ? ' src-hl' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <span className="src-no" aria-hidden="true" style={{ width: `${width + 1}ch` }}>
                  {n}
                </span>
                <code>{lines[item.index] || ' '}</code>
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}
