/**
 * Small pieces of the dreaming views: an entry's annotations as chips (trigger phrases,
 * importance, project) and the evidence dreaming recorded for a candidate (recall count,
 * distinct queries and their texts, days, best match, the sessions that searched for it).
 */
import type { EntryAnnotations, RecallEvidence } from '../../../../shared/types/dreaming';
import { when } from '../sessions/format';

export function Annotations({ a }: { a: EntryAnnotations }) {
  if (!a.triggers.length && a.importance === undefined && !a.projects.length) return null;
  return (
    <p className="dream-chips" aria-label="Annotations">
      {a.triggers.map((t) => (
        <span key={`t-${t}`} className="chip dream-chip" title="Trigger phrase: a matching message brings this entry in">
          trigger: {t}
        </span>
      ))}
      {a.importance !== undefined && (
        <span className="chip dream-chip" title="Importance (1–10), used by search ranking">
          importance {a.importance}
        </span>
      )}
      {a.projects.map((p) => (
        <span key={`p-${p}`} className="chip dream-chip" title="Project this entry belongs to">
          project: {p}
        </span>
      ))}
    </p>
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function Evidence({ e }: { e: RecallEvidence }) {
  const sessions = [...new Set(e.sessions.map((s) => s.sessionId))];
  return (
    <dl className="dream-evidence" data-testid="evidence">
      <dt>Recalled</dt>
      <dd>
        {plural(e.recallCount, 'time')} by {plural(e.uniqueQueries, 'distinct query', 'distinct queries')}
        {e.recallDays.length ? ` on ${e.recallDays.join(', ')}` : ''}
        {e.dailyCount ? ` · seen ${plural(e.dailyCount, 'time')} by dreaming's daily pass` : ''}
      </dd>
      {e.queries.length > 0 && (
        <>
          <dt>Queries</dt>
          <dd>{e.queries.map((q) => `“${q}”`).join(', ')}</dd>
        </>
      )}
      {sessions.length > 0 && (
        <>
          <dt>Sessions</dt>
          <dd>
            {sessions.map((id, i) => (
              <span key={id}>
                {i > 0 && ', '}
                <a href={`#/sessions/${encodeURIComponent(id)}/timeline`}>{id}</a>
              </span>
            ))}
          </dd>
        </>
      )}
      {(e.maxScore !== undefined || e.avgScore !== undefined) && (
        <>
          <dt>Search match</dt>
          <dd>
            {e.maxScore !== undefined && `best ${e.maxScore.toFixed(2)}`}
            {e.avgScore !== undefined && ` · average ${e.avgScore.toFixed(2)}`}
          </dd>
        </>
      )}
      {(e.lightHits ?? 0) + (e.remHits ?? 0) > 0 && (
        <>
          <dt>Dreaming revisits</dt>
          <dd>
            light sleep {e.lightHits ?? 0} · REM {e.remHits ?? 0}
          </dd>
        </>
      )}
      {e.originClass && (
        <>
          <dt>Written by</dt>
          <dd>
            {e.originClass}
            {e.sessionKind && e.sessionKind !== 'unknown' ? ` (${e.sessionKind} session)` : ''}
          </dd>
        </>
      )}
      {e.promotedAt && (
        <>
          <dt>Promoted</dt>
          <dd>{when(e.promotedAt)}</dd>
        </>
      )}
    </dl>
  );
}
