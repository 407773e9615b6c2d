/**
 * The session timeline: every entry, virtualised with @tanstack/react-virtual (only the rows
 * in view are in the DOM; heights are measured as they render, so Markdown, open tool
 * outputs and cards take the space they need). Jumps (compaction links, the dry-run cut)
 * scroll to an entry and flash it. Entries still loading show a placeholder row.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useSessions, type CompactionInfo } from '../../stores/sessions';
import { EntryRow } from './EntryRow';
import { messageOf, textChars, type RawEntry } from './entry-types';

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
  const scrollRef = useRef<HTMLDivElement>(null);
  const [flash, setFlash] = useState<string | undefined>();

  const indexById = useMemo(() => {
    const m = new Map<string, number>();
    entries.forEach((e, i) => e && m.set(e.id, i));
    return m;
  }, [entries]);
  const compactions = useMemo(() => overview?.compactions ?? [], [overview]);
  const compactionById = useMemo(() => new Map(compactions.map((c) => [c.id, c])), [compactions]);
  const chainById = useMemo(() => new Map(compactions.map((c) => [c.id, compactions.filter((p) => p.ordinal < c.ordinal)])), [compactions]);
  const summarised = useMemo(() => new Set(plan?.summarisedEntryIds ?? []), [plan]);

  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimate(entries[i]),
    getItemKey: (i) => entries[i]?.id ?? `loading-${i}`,
    overscan: 6,
  });

  // Scroll to a requested entry once it is loaded.
  const pending = useRef<{ id: string; nonce: number } | undefined>(undefined);
  useEffect(() => {
    if (jump) pending.current = jump;
  }, [jump]);
  useEffect(() => {
    const want = pending.current;
    if (!want) return;
    const index = indexById.get(want.id);
    if (index === undefined) return; // not loaded yet: retried when entries change
    pending.current = undefined;
    virtualizer.scrollToIndex(index, { align: 'start' });
    setFlash(want.id);
    const t = setTimeout(() => setFlash(undefined), 1400);
    return () => clearTimeout(t);
  }, [jump, indexById, virtualizer]);

  const items = virtualizer.getVirtualItems();

  return (
    <div ref={scrollRef} className="timeline" data-testid="timeline" data-loaded={complete ? entries.length : undefined} aria-label="Session timeline (Home/End: first/last entry)"
      tabIndex={0}
      onKeyDown={(ev) => {
        // Home/End jump through the virtualiser (the browser's own would stop at the estimated end).
        if (ev.key !== 'Home' && ev.key !== 'End') return;
        ev.preventDefault();
        if (entries.length) virtualizer.scrollToIndex(ev.key === 'Home' ? 0 : entries.length - 1, { align: ev.key === 'Home' ? 'start' : 'end' });
      }}
    >
      <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const e = entries[item.index];
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
