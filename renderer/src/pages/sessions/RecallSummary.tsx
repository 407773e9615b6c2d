/**
 * In the session header of a connected OpenClaw session: how many of its prompts Cairn
 * recalled for, and log lines it could not read or match to a turn. It also (re)reads the
 * recall log whenever the session's entries are (re)loaded, for TurnRecall under each turn.
 */
import { useEffect } from 'react';
import { useSessions } from '../../stores/sessions';
import { Collapsible } from './Collapsible';
import { loadRecall, useRecall } from './recall-store';
import { recallHeadline } from './TurnRecall';
import './recall.css';
import { when } from './format';

export function RecallSummary() {
  const selectedId = useSessions((s) => s.selectedId);
  const entries = useSessions((s) => s.entries);
  const complete = useSessions((s) => s.entriesComplete);
  const { sessionId, log, byEntry, unmatched, error, userTurns } = useRecall();

  useEffect(() => {
    if (!selectedId || !complete) return;
    const ctl = new AbortController();
    void loadRecall(selectedId, entries, ctl.signal);
    return () => ctl.abort();
  }, [selectedId, complete, entries]);

  if (sessionId !== selectedId) return null;
  if (error) return <span className="chip chip-fail">Could not read Cairn’s recall log: {error}</span>;
  if (!log?.exists) return null;
  const injected = [...byEntry.values()].filter((m) => m.record.outcome === 'injected').length;
  return (
    <span className="recall-summary" data-testid="recall-summary">
      <span title={log.logPath}>
        Cairn recalled before {injected} of {userTurns} prompt{userTurns === 1 ? '' : 's'}
      </span>
      {log.truncated && <span className="chip">latest records only</span>}
      {log.malformed.length > 0 && (
        <span className="chip chip-fail" title={log.malformed.map((m) => `line ${m.line}: ${m.error}`).join('\n')}>
          {log.malformed.length} unreadable recall line{log.malformed.length === 1 ? '' : 's'}
        </span>
      )}
      {unmatched.length > 0 && (
        <Collapsible className="recall-unmatched" summary={<span className="chip">{unmatched.length} not matched to a turn</span>}>
          {() => (
            <ul>
              {unmatched.map((r) => (
                <li key={r.line}>
                  <span className="mono">{when(r.ts)}</span> “{r.promptPreview}” — {recallHeadline(r)}
                </li>
              ))}
            </ul>
          )}
        </Collapsible>
      )}
    </span>
  );
}
