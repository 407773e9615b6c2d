/**
 * Find inside the open session: the timeline is virtualised, so the browser's
 * Ctrl+F sees only the rows in view. This searches every loaded entry's text (messages,
 * thinking, tool calls and results, summaries) and jumps the timeline to each match in turn
 * (Enter: next, Shift+Enter: previous).
 */
import { useMemo, useState } from 'react';
import { useSessions } from '../../stores/sessions';
import { blocksOf, messageOf, type RawEntry } from './entry-types';

/** The searchable text of one entry, lower-cased. */
function entryText(e: RawEntry): string {
  const m = messageOf(e);
  const parts: string[] = [];
  if (m) {
    for (const b of blocksOf(m.content)) {
      if (b.text) parts.push(b.text);
      if (b.thinking) parts.push(b.thinking);
      if (b.name) parts.push(b.name);
      if (b.arguments !== undefined) parts.push(JSON.stringify(b.arguments));
    }
    if (m.toolName) parts.push(m.toolName);
  }
  if (typeof e.summary === 'string') parts.push(e.summary);
  if (typeof e.content === 'string') parts.push(e.content);
  return parts.join('\n').toLowerCase();
}

export function FindInSession() {
  const entries = useSessions((s) => s.entries);
  const complete = useSessions((s) => s.entriesComplete);
  const jumpTo = useSessions((s) => s.jumpTo);
  const [q, setQ] = useState('');
  const [at, setAt] = useState(-1);
  const needle = q.trim().toLowerCase();
  const matches = useMemo(() => {
    if (needle.length < 2) return [];
    const ids: string[] = [];
    for (const e of entries) if (e && entryText(e).includes(needle)) ids.push(e.id);
    return ids;
  }, [entries, needle]);

  function go(step: number) {
    if (!matches.length) return;
    const next = (((at + step) % matches.length) + matches.length) % matches.length;
    setAt(next);
    jumpTo(matches[next] as string);
  }

  return (
    <div className="find-in-session" role="search" aria-label="Find in this session">
      <input
        type="search"
        aria-label="Find in this session"
        placeholder="Find in this session…"
        value={q}
        onChange={(e) => {
          setQ(e.target.value);
          setAt(-1);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            go(e.shiftKey ? -1 : 1);
          }
        }}
      />
      <button type="button" onClick={() => go(-1)} disabled={!matches.length} aria-label="Previous match">
        ↑
      </button>
      <button type="button" onClick={() => go(1)} disabled={!matches.length} aria-label="Next match">
        ↓
      </button>
      <span className="muted" aria-live="polite" data-testid="find-count">
        {needle.length < 2 ? '' : matches.length === 0 ? `no match${complete ? '' : ' yet (still loading)'}` : `${at < 0 ? '–' : at + 1} of ${matches.length}`}
      </span>
    </div>
  );
}
