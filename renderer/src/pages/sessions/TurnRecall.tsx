/**
 * Under a user turn of a connected OpenClaw session: what Cairn recalled for it before the
 * model saw it — the hits with their citations (a click opens the note at those lines, or the
 * session at that line), score and snippet, how long it took and how much was added; or why
 * there was no recall ("timed out after 300 ms"). Also a `<relevant-memories>` section that
 * OpenClaw kept in the transcript itself.
 */
import type { MouseEvent } from 'react';
import type { RecallHitView, RecallRecordView } from '../../../../shared/contract/openclaw-recall';
import { memoryHref } from '../../stores/memory';
import { useSessions } from '../../stores/sessions';
import { Collapsible } from './Collapsible';
import { num } from './format';
import { useRecall } from './recall-store';
import type { TurnRecall as Match } from './recall-match';
import './recall.css';
import { scrollRegion } from '../../components/scroll-region';

/** The session id a `sessions/<id>.jsonl` citation names, or undefined for a memory file. */
function citedSession(h: RecallHitView): string | undefined {
  if (h.source !== 'sessions' && !/^sessions\//.test(h.path)) return undefined;
  return (h.path.split('/').pop() ?? h.path).replace(/\.jsonl$/, '');
}

function hrefOf(h: RecallHitView): string {
  const sid = citedSession(h);
  if (sid) return `#/sessions/${encodeURIComponent(sid)}/timeline?line=${h.startLine}`;
  return memoryHref(h.path, { from: h.startLine, to: h.endLine });
}

/** A session citation opens in this page (its hash alone would not reopen an open page). */
function openCited(ev: MouseEvent, h: RecallHitView): void {
  const sid = citedSession(h);
  if (!sid || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey) return;
  ev.preventDefault();
  const s = useSessions.getState();
  s.open(sid);
  s.jumpToLine(h.startLine);
}

function Hits({ hits }: { hits: RecallHitView[] }) {
  return (
    <ol className="recall-hits">
      {hits.map((h, i) => (
        <li key={`${h.citation}-${i}`} data-testid="recall-hit">
          <a className="recall-cite mono" href={hrefOf(h)} onClick={(ev) => openCited(ev, h)}>
            {h.citation}
          </a>{' '}
          <span className="chip">{citedSession(h) ? 'session' : 'memory'}</span>{' '}
          <span className="muted" title="search score">
            score {h.score.toFixed(2)}
          </span>
          {h.snippet && <div className="recall-snippet">{h.snippet}</div>}
        </li>
      ))}
    </ol>
  );
}

/** The one-line account of a record, for a person. */
export function recallHeadline(r: RecallRecordView): string {
  const n = r.hits.length;
  switch (r.outcome) {
    case 'injected':
      return `Cairn recalled ${n === 1 ? '1 passage' : `${n} passages`} for this turn · ${num(r.injectedChars)} chars added · ${Math.round(r.tookMs)} ms`;
    case 'none':
      return `Cairn recalled nothing for this turn${r.reason ? `: ${r.reason}` : ' (no hit above the score floor)'} · ${Math.round(r.tookMs)} ms`;
    case 'timeout':
      return `No recall: ${r.reason ?? `timed out after ${Math.round(r.tookMs)} ms`}`;
    case 'error':
      return `No recall: ${r.reason ?? 'Cairn failed'}`;
    case 'skipped':
      return `No recall: skipped${r.reason ? ` (${r.reason})` : ''}`;
  }
}

function RecordView({ m }: { m: Match }) {
  const r = m.record;
  const added = r.outcome === 'injected';
  return (
    <div className={`recall recall-${r.outcome}`} data-testid="turn-recall" data-outcome={r.outcome}>
      <div className="recall-head">
        <span className="recall-title">{recallHeadline(r)}</span>
        {m.by === 'time' && (
          <span className="chip chip-warn" title="The log's prompt did not match this message's text; it was matched by time.">
            matched by time
          </span>
        )}
      </div>
      {r.hits.length > 0 && (added ? <Hits hits={r.hits} /> : (
        <Collapsible summary={<span className="muted">{r.hits.length} found but not added</span>}>{() => <Hits hits={r.hits} />}</Collapsible>
      ))}
      {r.query && (
        <div className="muted recall-query">
          Searched for: <q>{r.query.length > 240 ? `${r.query.slice(0, 240)}…` : r.query}</q>
        </div>
      )}
    </div>
  );
}

/** The recall of user turn `entryId`, or nothing when Cairn has none for it. */
export function TurnRecall({ entryId }: { entryId: string }) {
  const m = useRecall((s) => s.byEntry.get(entryId));
  const kept = useRecall((s) => s.inTranscript.get(entryId));
  if (!m && !kept) return null;
  return (
    <>
      {m && <RecordView m={m} />}
      {kept && !m && (
        <div className="recall" data-testid="turn-recall" data-outcome="transcript">
          <Collapsible summary={<span className="recall-title">Recalled memories kept in this message by OpenClaw</span>}>
            {() => <pre className="pre" {...scrollRegion('What recall put in the prompt')}>{kept.join('\n\n')}</pre>}
          </Collapsible>
        </div>
      )}
    </>
  );
}
