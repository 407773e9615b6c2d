/**
 * The session timeline: every entry, virtualised with @tanstack/react-virtual (only the rows
 * in view are in the DOM; heights are measured as they render, so Markdown, open tool
 * outputs and cards take the space they need). Jumps (compaction links, the dry-run cut)
 * scroll to an entry and flash it. Entries still loading show a placeholder row. Lines that
 * did not parse are shown in place (line number, raw text, parse error): timeline-rows.ts.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useSessions, type CompactionInfo } from '../../stores/sessions';
import { EntryRow } from './EntryRow';
import { messageOf, textChars, type RawEntry } from './entry-types';
import { timelineRows } from './timeline-rows';
import type { MalformedLineView } from '../../../../shared/types/sessions';

/** A first guess of a row's height before it is measured (closer guesses = steadier scrollbar). */
function estimate(e: RawEntry | undefined): number {
  if (!e) return 40;
  if (e.type === 'compaction') return 320;
  const m = messageOf(e);
  if (!m) return 30;
  if (m.role === 'toolResult') return 56;
  const chars = textChars(m.content);
  return 52 + Math.min(600, Math.ceil(chars / 110) * 20);
}

const NO_CHAIN: CompactionInfo[] = [];

export function Timeline() {
  const entries = useSessions((s) => s.entries);
  const complete = useSessions((s) => s.entriesComplete);
  const overview = useSessions((s) => s.overview.value);
  const jump = useSessions((s) => s.jump);
  const jumpTo = useSessions((s) => s.jumpTo);
  const plan = useSessions((s) => s.plan.value);
  const malformed = useSessions((s) => s.malformed);
  const scrollRef = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => timelineRows(entries, malformed, complete), [entries, malformed, complete]);
  // Entry id → row index (rows include the malformed lines, so it differs from the entry index).
  const indexById = useMemo(() => {
    const m = new Map<string, number>();
    rows.forEach((r, i) => {
      const e = r.kind === 'entry' ? entries[r.index] : undefined;
      if (e) m.set(e.id, i);
    });
    return m;
  }, [rows, entries]);
  const compactions = useMemo(() => overview?.compactions ?? [], [overview]);
  const compactionById = useMemo(() => new Map(compactions.map((c) => [c.id, c])), [compactions]);
  const chainById = useMemo(() => new Map(compactions.map((c) => [c.id, compactions.filter((p) => p.ordinal < c.ordinal)])), [compactions]);
  const summarised = useMemo(() => new Set(plan?.summarisedEntryIds ?? []), [plan]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => {
      const r = rows[i];
      return r?.kind === 'entry' ? estimate(entries[r.index]) : 90;
    },
    getItemKey: (i) => {
      const r = rows[i];
      if (r?.kind === 'malformed') return `bad-${r.bad.line}`;
      return (r && entries[r.index]?.id) ?? `loading-${i}`;
    },
    overscan: 6,
  });

  const flash = useJumpFlash(jump, indexById, (index) => virtualizer.scrollToIndex(index, { align: 'start' }));

  const items = virtualizer.getVirtualItems();

  return (
    <div ref={scrollRef} className="timeline" data-testid="timeline" data-loaded={complete ? entries.length : undefined} aria-label="Session timeline (Home/End: first/last entry)"
      tabIndex={0}
      onKeyDown={(ev) => {
        // Home/End jump through the virtualiser (the browser's own would stop at the estimated end).
        if (ev.key !== 'Home' && ev.key !== 'End') return;
        ev.preventDefault();
        if (rows.length) virtualizer.scrollToIndex(ev.key === 'Home' ? 0 : rows.length - 1, { align: ev.key === 'Home' ? 'start' : 'end' });
      }}
    >
      <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const r = rows[item.index];
          if (r?.kind === 'malformed') {
            return (
              <div key={item.key} className="timeline-row" data-index={item.index} ref={virtualizer.measureElement} style={{ transform: `translateY(${item.start}px)` }}>
                <MalformedLine bad={r.bad} />
              </div>
            );
          }
          const e = r ? entries[r.index] : undefined;
          return (
            <div
              key={item.key}
              className="timeline-row"
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {e ? (
                <EntryRow
                  e={e}
                  compaction={compactionById.get(e.id)}
                  chain={chainById.get(e.id) ?? NO_CHAIN}
                  cut={plan?.firstKeptEntryId === e.id}
                  summarised={summarised.has(e.id)}
                  flash={flash === e.id}
                  onJump={jumpTo}
                />
              ) : (
                <div className="loading-row">{complete ? 'missing entry' : 'Loading…'}</div>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** A line of the file that did not parse, shown in place. */
function MalformedLine({ bad }: { bad: MalformedLineView }) {
  return (
    <div className="entry entry-malformed" data-testid="malformed-line" data-line={bad.line}>
      <div className="entry-meta">
        <span className="role">Line {bad.line} could not be read</span>
        <span className="muted">skipped when the context is rebuilt; kept in the file as it is</span>
      </div>
      <pre className="malformed-raw">{bad.preview || '(empty line)'}</pre>
      <div className="malformed-error">{bad.error}</div>
    </div>
  );
}

/**
 * Scroll to a requested entry once it is loaded (retried as entries arrive) and flash it:
 * returns the id of the entry flashing now.
 */
function useJumpFlash(jump: { id: string; nonce: number } | undefined, indexById: Map<string, number>, scrollTo: (index: number) => void): string | undefined {
  const [flash, setFlash] = useState<string | undefined>();
  const pending = useRef<{ id: string; nonce: number } | undefined>(undefined);
  const scroll = useRef(scrollTo);
  scroll.current = scrollTo;
  useEffect(() => {
    if (jump) pending.current = jump;
  }, [jump]);
  useEffect(() => {
    const want = pending.current;
    if (!want) return;
    const index = indexById.get(want.id);
    if (index === undefined) return; // not loaded yet: retried when entries change
    pending.current = undefined;
    scroll.current(index);
    setFlash(want.id);
    const t = setTimeout(() => setFlash(undefined), 1400);
    return () => clearTimeout(t);
  }, [jump, indexById]);
  return flash;
}
