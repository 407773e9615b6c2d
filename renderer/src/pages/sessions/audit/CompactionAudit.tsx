/**
 * "What each compaction lost" in the Compaction tab: for the open session, the
 * engine's audit (`audit.session`) — per compaction, newest first, the identifiers, open asks,
 * TODOs and decisions that neither the summary nor the flush before it kept, each with a link
 * that jumps the timeline to where it was said; whether a flush ran; the summary it replaced.
 */
import { useEffect, useState } from 'react';
import { api } from '../../../api';
import { useSessions } from '../../../stores/sessions';
import type { CompactionAudit as Audit, LostItem, SaidAt, SessionAudit } from '../../../../../shared/types/audit';
import { num } from '../format';
import { Ticks } from './Ticks';
import './audit.css';

function Where({ at, onJump }: { at: SaidAt; onJump: (id: string) => void }) {
  const who = at.role === 'summary' ? 'the earlier summary' : at.role === 'toolResult' ? 'a tool result' : at.role;
  return (
    <button type="button" className="link" onClick={() => onJump(at.entryId)} title={at.excerpt} aria-label={`L${at.line} (${who}): jump to where it was said`}>
      L{at.line} ({who})
    </button>
  );
}

function Items({ title, list, total, onJump }: { title: string; list: LostItem[]; total: number; onJump: (id: string) => void }) {
  if (!total) return null;
  return (
    <div className="audit-group">
      <h4>
        {title} ({num(total)})
      </h4>
      <ul>
        {list.slice(0, 50).map((x, i) => (
          <li key={i}>
            <span>{x.text}</span> <Where at={x.at} onJump={onJump} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function flushLine(a: Audit): string {
  const f = a.flush;
  const ran = f.ran === null ? 'Flush before it: unknown' : f.ran ? `Flush before it: ran${f.at ? ` at ${f.at.replace('T', ' ').slice(0, 16)}` : ''}` : 'Flush before it: did not run';
  const wrote = f.wrote.length ? `; ${num(f.wrote.length)} note line${f.wrote.length === 1 ? '' : 's'} counted as flushed${f.approximate ? ' (approximate)' : ''}` : '';
  const under = f.underThreshold !== undefined && f.threshold !== undefined ? ` · tokens before ${f.underThreshold >= 0 ? `${num(f.underThreshold)} under` : `${num(-f.underThreshold)} over`} the flush threshold (${num(f.threshold)})` : '';
  return `${ran}${wrote}${under}.`;
}

function OneCompaction({ a, onJump, open }: { a: Audit; onJump: (id: string) => void; open: boolean }) {
  const ids = a.lost.identifiers;
  return (
    <details className="audit-card" aria-label={`What compaction ${a.ordinal} lost`} data-testid="audit-card" open={open}>
      <summary className="audit-head">
        <strong>Compaction {a.ordinal}</strong>
        <span className={a.lostCounts.identifiers ? 'chip chip-warn' : 'chip'}>
          {a.lostCounts.identifiers ? `lost ${num(a.lostCounts.identifiers)} identifier${a.lostCounts.identifiers === 1 ? '' : 's'}` : 'kept every identifier'}
        </span>
        <span className="muted">
          {a.timestamp.replace('T', ' ').slice(0, 16)} · {num(a.tokensBefore ?? 0)} → {a.tokensAfter === undefined ? '?' : num(a.tokensAfter)} tokens · {a.origin}
        </span>
      </summary>
      <p className="muted">
        <button type="button" className="link" onClick={() => onJump(a.id)}>
          Show it in the timeline
        </button>{' '}
        Compacted lines {a.compacted.fromLine}–{a.compacted.toLine} ({num(a.compacted.messages)} messages, {num(a.compacted.identifiers)} identifiers).{' '}
        {a.summaryOf && (
          <>
            A summary of a summary: it replaced{' '}
            <button type="button" className="link" onClick={() => onJump(a.summaryOf!.id)}>
              compaction {a.summaryOf.ordinal}
            </button>
            , and what that one carried counts here.{' '}
          </>
        )}
        <span title={a.flush.evidence}>{flushLine(a)}</span>
      </p>
      {a.safeguard.length > 0 && <p className="notice notice-warn">Safeguard: {a.safeguard.join('; ')}</p>}
      {a.lostCounts.identifiers === 0 ? (
        <p data-testid="audit-kept-all">Every identifier of the compacted part is in the summary, the flushed notes or the kept messages.</p>
      ) : (
        <div className="audit-group">
          <h4>
            Lost identifiers ({num(a.lostCounts.identifiers)})
          </h4>
          <ul data-testid="audit-lost-identifiers">
            {ids.slice(0, 100).map((x) => (
              <li key={x.value}>
                <code>{x.value}</code> <Where at={x.at} onJump={onJump} />
                {x.mentions > 1 && <span className="muted"> · {x.mentions}×</span>}
              </li>
            ))}
          </ul>
          {a.lostCounts.identifiers > 100 && <p className="muted">+{num(a.lostCounts.identifiers - 100)} more (cairn audit --session … --json lists them all)</p>}
        </div>
      )}
      <Items title="Open asks" list={a.lost.asks} total={a.lostCounts.asks} onJump={onJump} />
      <Items title="TODOs" list={a.lost.todos} total={a.lostCounts.todos} onJump={onJump} />
      <Items title="Decisions" list={a.lost.decisions} total={a.lostCounts.decisions} onJump={onJump} />
    </details>
  );
}

/** The audit of the open session (reloaded when its compactions change). */
export function CompactionAudit() {
  const sessionId = useSessions((s) => s.selectedId);
  const count = useSessions((s) => s.overview.value?.compactions.length);
  const jumpTo = useSessions((s) => s.jumpTo);
  const [state, setState] = useState<{ value?: SessionAudit; error?: string; loading: boolean }>({ loading: false });
  useEffect(() => {
    if (!sessionId || !count) return;
    let live = true;
    setState({ loading: true });
    api['audit.session']({ sessionId }).then(
      (value) => live && setState({ value, loading: false }),
      (err: Error) => live && setState({ error: err.message, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [sessionId, count]);
  if (!count) return null;
  const v = state.value;
  return (
    <section aria-labelledby="audit-title" data-testid="compaction-audit">
      <h2 id="audit-title">What each compaction lost</h2>
      {state.loading && <p className="muted">Auditing the compactions (no model)…</p>}
      {state.error && (
        <p role="alert" className="error">
          Could not audit the compactions: {state.error}
        </p>
      )}
      {v && (
        <>
          <p data-testid="audit-summary">
            <Ticks text={v.summary} />
          </p>
          <p className="muted">
            Kept means: in the summary, in the notes the flush before it wrote, or in the messages kept verbatim (identifierPolicy “{v.policy}”).
          </p>
          {[...v.compactions].reverse().map((a, i) => (
            <OneCompaction key={a.id} a={a} onJump={jumpTo} open={i === 0} />
          ))}
        </>
      )}
    </section>
  );
}
