/**
 * The session list: a search box, sort (last activity / size / compactions), one row per
 * session with a token meter against its context window, message and compaction counts and
 * last activity. Keyboard: ↑/↓ move, Enter opens, Home/End jump; "/" focuses the search.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useSessions, visibleSessions, type SessionRow, type SortKey } from '../../stores/sessions';
import { ago, bytes, compact, num, pct } from './format';
import { useApp } from '../../stores/app';
import { StateAuditLine } from './audit/StateAuditLine';

function Meter({ row }: { row: SessionRow }) {
  // The system prompt is sent on every call but is in no transcript line: counted where
  // OpenClaw recorded its size, and said so in the tooltip.
  const tokens = row.tokens + (row.systemPromptTokens ?? 0);
  const ratio = row.contextWindow > 0 ? tokens / row.contextWindow : 0;
  const level = ratio >= 0.9 ? ' fail' : ratio >= 0.75 ? ' warn' : '';
  const title =
    `${num(tokens)} of ${num(row.contextWindow)} tokens (estimate)` +
    (row.systemPromptTokens ? ` — ${num(row.tokens)} of messages + ~${num(row.systemPromptTokens)} of system prompt (OpenClaw's report)` : '') +
    (row.recordedTokens ? ` · OpenClaw counted ${num(row.recordedTokens)} at its last call` : '');
  return (
    <div className="meter" title={title}>
      <div
        className="meter-bar"
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={row.contextWindow}
        aria-valuenow={tokens}
        aria-valuetext={`${num(tokens)} of ${num(row.contextWindow)} tokens (${pct(ratio)})`}
      >
        <div className={`meter-fill${level}`} style={{ width: `${Math.min(100, ratio * 100)}%` }} />
      </div>
      <span>
        {row.systemPromptTokens ? '~' : ''}
        {compact(tokens)} / {compact(row.contextWindow)}
      </span>
    </div>
  );
}

export function SessionList() {
  const go = useApp((st) => st.go);
  const list = useSessions((s) => s.list);
  const query = useSessions((s) => s.query);
  const sort = useSessions((s) => s.sort);
  const selectedId = useSessions((s) => s.selectedId);
  const setQuery = useSessions((s) => s.setQuery);
  const setSort = useSessions((s) => s.setSort);
  const open = useSessions((s) => s.open);
  const rows = useMemo(() => visibleSessions(list.value?.sessions ?? [], query, sort), [list.value, query, sort]);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));
  const activeRow = rows[activeIndex];

  useEffect(() => {
    listRef.current?.querySelector('.is-active')?.scrollIntoView({ block: 'nearest' });
  }, [activeIndex]);

  const onKey = (e: KeyboardEvent) => {
    const last = rows.length - 1;
    const move = (i: number) => {
      e.preventDefault();
      setActive(Math.max(0, Math.min(last, i)));
    };
    if (e.key === 'ArrowDown') move(activeIndex + 1);
    else if (e.key === 'ArrowUp') move(activeIndex - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(last);
    else if (e.key === 'Enter' && activeRow) {
      e.preventDefault();
      open(activeRow.sessionId);
    }
  };

  return (
    <aside className="sessions-list" id="sessions-list" aria-label="Sessions">
      <div className="sessions-tools">
        <input
          type="search"
          placeholder="Filter sessions…"
          aria-label="Filter sessions"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'Enter') {
              listRef.current?.focus();
              onKey(e);
            }
          }}
        />
        <SortBy sort={sort} setSort={setSort} shown={rows.length} />
      </div>
      {list.error && (
        <p role="alert" className="error" style={{ padding: '0 10px' }}>
          Could not list sessions: {list.error}
        </p>
      )}
      {list.value?.unreadable.map((u) => (
        <div key={u.source} role="alert" className="notice notice-warn" style={{ margin: 10 }} data-testid="store-unreadable">
          Sessions in <code>{u.source}</code> cannot be read, so they are not listed: {u.error}
        </div>
      ))}
      <StateAuditLine />
      {list.loading && !list.value && <p className="muted" style={{ padding: '0 10px' }}>Loading sessions…</p>}
      {list.value && list.value.sessions.length === 0 && <NoSessions sessionsDir={list.value.sessionsDir} go={go} />}
      {list.value && list.value.sessions.length > 0 && rows.length === 0 && <p className="muted" style={{ padding: '0 10px' }}>No session matches “{query}”.</p>}
      <ul
        ref={listRef}
        className="sessions-rows"
        role="listbox"
        aria-label="Session list"
        tabIndex={0}
        aria-activedescendant={activeRow ? `session-${activeRow.sessionId}` : undefined}
        onKeyDown={onKey}
      >
        {rows.map((r, i) => (
          <SessionItem
            key={r.sessionId}
            r={r}
            selected={r.sessionId === selectedId}
            active={i === activeIndex}
            onOpen={() => {
              setActive(i);
              open(r.sessionId);
            }}
          />
        ))}
      </ul>
    </aside>
  );
}

/** The card of a folder without conversations: where it looked, and the ways on. */
function NoSessions({ sessionsDir, go }: { sessionsDir: string; go: (page: 'chat' | 'welcome') => void }) {
  return (
    <div className="empty" style={{ margin: 10 }} data-testid="sessions-empty">
      <p>
        No conversations in this folder yet (
        <code className="path" title={sessionsDir}>
          {sessionsDir}
        </code>
        ).
      </p>
      <div className="row">
        <button type="button" onClick={() => go('chat')}>
          Start one in Chat
        </button>
        <button type="button" onClick={() => go('welcome')}>
          Open another folder
        </button>
      </div>
    </div>
  );
}

/** One session in the list: title, last activity, the token meter and its counts. */
function SessionItem({ r, selected, active, onOpen }: { r: SessionRow; selected: boolean; active: boolean; onOpen: () => void }) {
  return (
    <li
      id={`session-${r.sessionId}`}
      role="option"
      aria-selected={selected}
      className={`session-row${active ? ' is-active' : ''}`}
      data-session-id={r.sessionId}
      onClick={onOpen}
    >
      <span className="session-title">{r.title ?? r.key ?? r.sessionId}</span>
      <span className="muted" style={{ fontSize: 12 }}>
        {ago(r.updatedAt)}
      </span>
      <Meter row={r} />
      <span className="session-sub">
        <span>{num(r.messages)} messages</span>
        <span>{r.compactions} compaction{r.compactions === 1 ? '' : 's'}</span>
        <span>{bytes(r.bytes)}</span>
        {r.store === 'openclaw-sqlite' && <span title="In OpenClaw's SQLite session store: Cairn reads it, never writes it">OpenClaw store · read-only</span>}
      </span>
    </li>
  );
}

/** The sort choice and how many sessions the filter shows. */
function SortBy({ sort, setSort, shown }: { sort: SortKey; setSort: (s: SortKey) => void; shown: number }) {
  return (
    <label className="sort">
      Sort by
      <select aria-label="Sort sessions by" value={sort} onChange={(e) => setSort(e.target.value as SortKey)}>
        <option value="activity">last activity</option>
        <option value="size">size</option>
        <option value="compactions">compactions</option>
      </select>
      <span className="muted">{shown} shown</span>
    </label>
  );
}
