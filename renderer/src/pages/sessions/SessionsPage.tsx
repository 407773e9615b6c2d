/**
 * The Sessions page: the list on the left, the open session on the right with three tabs —
 * Timeline (token chart + virtualised entries), Pruning, Compaction. The open session and tab
 * live in the URL hash (`#/sessions/<id>/<tab>`), so a reload or a link lands on them.
 */
import { Suspense, lazy, useEffect, useState, type KeyboardEvent } from 'react';
import { api } from '../../api';
import { useSessions, type SessionTab } from '../../stores/sessions';
import { CompactionInspector } from './CompactionInspector';
import { PruningView } from './PruningView';
import { SessionList } from './SessionList';
import { Markdown } from './Markdown';
import { Timeline } from './Timeline';
import { ListToggle, useSessionList } from './ListToggle';
import { FindInSession } from './FindInSession';
import { RecallSummary } from './RecallSummary';
import { ago, bytes, num } from './format';
import { DOOR, openInOpenClaw } from '../../door';
import './sessions.css';

const TokenChart = lazy(() => import('./TokenChart'));
const TABS: { id: SessionTab; label: string }[] = [
  { id: 'timeline', label: 'Timeline' },
  { id: 'pruning', label: 'Pruning' },
  { id: 'compaction', label: 'Compaction' },
];

/** `#/sessions/<id>/<tab>[?line=N]` (a search citation adds the JSONL line to show). */
function fromHash(): { id: string | undefined; tab: SessionTab | undefined; line: number | undefined } {
  const [route = '', query = ''] = window.location.hash.replace(/^#\/?/, '').split('?');
  const [, id, tab] = route.split('/');
  const line = Number(new URLSearchParams(query).get('line'));
  return {
    id: id ? decodeURIComponent(id) : undefined,
    tab: TABS.some((t) => t.id === tab) ? (tab as SessionTab) : undefined,
    line: Number.isInteger(line) && line > 0 ? line : undefined,
  };
}

function Tabs() {
  const tab = useSessions((s) => s.tab);
  const setTab = useSessions((s) => s.setTab);
  const onKey = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === tab);
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d) return;
    e.preventDefault();
    const next = TABS[(i + d + TABS.length) % TABS.length] as (typeof TABS)[number];
    setTab(next.id);
    document.getElementById(`tab-${next.id}`)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label="Session views" onKeyDown={onKey}>
      {TABS.map((t) => (
        <button
          key={t.id}
          id={`tab-${t.id}`}
          type="button"
          role="tab"
          aria-selected={tab === t.id}
          aria-controls={`panel-${t.id}`}
          tabIndex={tab === t.id ? 0 : -1}
          onClick={() => setTab(t.id)}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

function SessionPane() {
  const selectedId = useSessions((s) => s.selectedId);
  const row = useSessions((s) => s.list.value?.sessions.find((r) => r.sessionId === s.selectedId));
  const tab = useSessions((s) => s.tab);
  const entriesError = useSessions((s) => s.entriesError);
  const overview = useSessions((s) => s.overview);
  const count = useSessions((s) => s.entries.length);
  const jumpTo = useSessions((s) => s.jumpTo);
  const malformed = useSessions((s) => s.malformed);
  const partial = useSessions((s) => s.entriesPartial);
  const none = useSessions((s) => s.list.value?.sessions.length === 0);
  if (!selectedId && none) {
    // An empty state dir: "pick a session" would point at nothing (the list says where it looked).
    return (
      <div className="session-pane">
        <div className="empty" style={{ margin: 24 }} data-testid="sessions-none">
          No sessions yet. Transcripts appear here once the assistant has talked in this state directory, or after you chat in Cairn.
        </div>
      </div>
    );
  }
  if (!selectedId) {
    return (
      <div className="session-pane">
        <div className="empty" style={{ margin: 24 }}>
          Pick a session on the left (↑/↓ and Enter) to see its timeline, what pruning would send, and its compactions.
        </div>
      </div>
    );
  }
  return (
    <section className="session-pane" aria-labelledby="session-title">
      <header className="session-head">
        <ListToggle />
        <h1 id="session-title">{row?.title ?? row?.key ?? selectedId}</h1>
        <div className="muted" style={{ fontSize: 12, display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          <span className="mono">{selectedId}</span>
          {DOOR === 'tab' && row?.key && (
            <button type="button" className="link" data-testid="open-in-openclaw" onClick={() => openInOpenClaw(row.key as string)}>
              Open in OpenClaw
            </button>
          )}
          {partial && (
            <span data-testid="entries-partial" role="status">
              first rows from the start of the file; reading all {bytes(partial.bytes)}…
            </span>
          )}
          {row && (
            <>
              <span>{num(count || row.entries)} entries</span>
              <span>
                {num(row.tokens)} / {num(row.contextWindow)} tokens
              </span>
              <span>{bytes(row.bytes)}</span>
              <span>last activity {ago(row.updatedAt)}</span>
              {malformed.length > 0 && (
                <span className="chip chip-fail" data-testid="malformed-count">
                  {malformed.length === 1 ? '1 unreadable line' : `${num(malformed.length)} unreadable lines`}
                </span>
              )}
            </>
          )}
          <RecallSummary />
        </div>
      </header>
      <Tabs />
      {entriesError && (
        <p role="alert" className="error" style={{ padding: '0 18px' }}>
          Could not read this session: {entriesError}
        </p>
      )}
      <div className="tab-body" id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === 'timeline' && (
          <>
            <div className="chart-box">
              {overview.error && (
                <p role="alert" className="error">
                  Could not compute the token chart: {overview.error}
                </p>
              )}
              {overview.value && overview.value.series.points.length > 0 && (
                <Suspense fallback={<div className="muted">Loading chart…</div>}>
                  <TokenChart series={overview.value.series} onPick={jumpTo} />
                </Suspense>
              )}
            </div>
            <FindInSession />
            <Timeline />
          </>
        )}
        {tab === 'pruning' && <PruningView />}
        {tab === 'compaction' && <CompactionInspector />}
      </div>
    </section>
  );
}

/**
 * Warm the Markdown pipeline (and fetch the chart's code) while the user is still choosing a
 * session: the first open of a session then does not pay for parsing set-up and JIT.
 */
function WarmUp() {
  const [show, setShow] = useState(false);
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 200));
    const id = idle(() => {
      setShow(true);
      void import('./TokenChart');
    });
    return () => (window.cancelIdleCallback ?? window.clearTimeout)(id);
  }, []);
  return show ? (
    <div hidden aria-hidden="true">
      <Markdown text={'# a\n\n**b** `c` ~~d~~\n\n| e | f |\n|---|---|\n| g | h |\n\n- [ ] i\n\n```\nj\n```'} />
    </div>
  ) : null;
}

export function SessionsPage() {
  const loadList = useSessions((s) => s.loadList);
  const selectedId = useSessions((s) => s.selectedId);
  const tab = useSessions((s) => s.tab);
  const open = useSessions((s) => s.open);
  const setTab = useSessions((s) => s.setTab);
  const listHidden = useSessionList((s) => s.hidden) && selectedId !== undefined;

  useEffect(() => {
    const h = fromHash();
    if (h.tab) setTab(h.tab);
    if (h.id) open(h.id);
    if (h.id && h.line) useSessions.getState().jumpToLine(h.line);
    void loadList();
    // Another writer changed a session (a chat turn ended, a compaction ran): refresh the list.
    const offs = [
      api.on('chat.event', (p) => {
        if (p.event.kind !== 'done') return;
        void loadList();
        if (p.sessionId === useSessions.getState().selectedId) useSessions.getState().reload();
      }),
      api.on('compact.progress', (p) => p.phase === 'done' && void loadList()),
      // OpenClaw wrote its SQLite store (it is running): its new events appear here.
      api.on('sessions.changed', () => {
        void loadList();
        if (useSessions.getState().selectedId) useSessions.getState().reload();
      }),
    ];
    return () => offs.forEach((off) => off());
  }, [loadList, open, setTab]);

  useEffect(() => {
    if (!selectedId) return;
    const want = `#/sessions/${encodeURIComponent(selectedId)}/${tab}`;
    if (window.location.hash !== want) window.history.replaceState(null, '', want);
  }, [selectedId, tab]);

  return (
    <div className={`sessions${listHidden ? ' list-hidden' : ''}`}>
      <SessionList />
      <SessionPane />
      <WarmUp />
    </div>
  );
}
