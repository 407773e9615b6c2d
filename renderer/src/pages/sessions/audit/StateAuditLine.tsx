/**
 * The state dir's compaction audit in one line above the session list: "4 of 19
 * compactions lost identifiers; the last one lost `ZX-4471`, `db/pool.ts`", with a link that
 * opens that session's Compaction tab. Shown only when some session was compacted.
 */
import { useEffect, useState } from 'react';
import { api } from '../../../api';
import { useSessions } from '../../../stores/sessions';
import type { StateAudit } from '../../../../../shared/types/audit';
import { Ticks } from './Ticks';
import './audit.css';

export function StateAuditLine() {
  const total = useSessions((s) => s.list.value?.sessions.reduce((n, r) => n + (r.compactions ?? 0), 0) ?? 0);
  const open = useSessions((s) => s.open);
  const setTab = useSessions((s) => s.setTab);
  const [audit, setAudit] = useState<StateAudit | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (!total) return;
    let live = true;
    api['audit.state']({}).then(
      (a) => live && (setAudit(a), setError(undefined)),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [total]);
  if (!total) return null;
  if (error) return <p className="muted audit-state">Could not audit the compactions: {error}</p>;
  if (!audit) return null;
  const last = audit.last;
  return (
    <p className={`audit-state${audit.withLostIdentifiers ? ' audit-state-lossy' : ''}`} data-testid="audit-state" role="status">
      <Ticks text={audit.summary} />{' '}
      {last && (
        <button
          type="button"
          className="link"
          onClick={() => {
            open(last.sessionId);
            setTab('compaction');
          }}
        >
          Open that session
        </button>
      )}
    </p>
  );
}
