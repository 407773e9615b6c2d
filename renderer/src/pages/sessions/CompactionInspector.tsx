/**
 * The compaction inspector: the dry-run plan (where the cut falls — shown in the timeline —
 * tokens before/after, the exact prompt), "Compact now" with instructions and an "all"
 * toggle (the configured model, or the deterministic extract when none — said up front),
 * progress with Cancel, the result card, and the history of every compaction.
 */
import { useEffect } from 'react';
import { useSessions, type CompactionInfo } from '../../stores/sessions';
import { useApp } from '../../stores/app';
import { useStateInfo } from '../../stores/state';
import { canWrite, READ_ONLY_NOTE } from '../../door';
import { CompactionCard } from './CompactionCard';
import { DryRunPlan } from './DryRunPlan';
import { CompactionAudit } from './audit/CompactionAudit';
import { num } from './format';

const NONE: CompactionInfo[] = [];

function Progress() {
  const run = useSessions((s) => s.run);
  const cancel = useSessions((s) => s.cancelCompact);
  if (!run.running) return null;
  const p = run.progress;
  return (
    <div className="progress-line" role="status" aria-live="polite" data-testid="compact-progress">
      {p?.total ? <progress max={p.total} value={p.done ?? 0} aria-label="Compaction progress" /> : <progress aria-label="Compaction progress" />}
      <span>
        {p?.phase ?? 'working'}
        {p?.message ? ` — ${p.message}` : ''}
      </span>
      <button type="button" onClick={cancel}>
        Cancel
      </button>
    </div>
  );
}

export function CompactionInspector() {
  const plan = useSessions((s) => s.plan);
  const run = useSessions((s) => s.run);
  const instructions = useSessions((s) => s.instructions);
  const all = useSessions((s) => s.all);
  const setInstructions = useSessions((s) => s.setInstructions);
  const setAll = useSessions((s) => s.setAll);
  const loadPlan = useSessions((s) => s.loadPlan);
  const compactNow = useSessions((s) => s.compactNow);
  const jumpTo = useSessions((s) => s.jumpTo);
  const compactions = useSessions((s) => s.overview.value?.compactions) ?? NONE;
  // state.info answers at once; app.status (doctor checks) can take seconds.
  const fastWritable = useStateInfo((s) => s.info?.writable);
  const statusWritable = useApp((s) => s.summary?.writable);
  const writable = canWrite ? (fastWritable ?? statusWritable) : false;
  const store = useSessions((s) => s.list.value?.sessions.find((r) => r.sessionId === s.selectedId)?.store);
  useEffect(() => {
    if (useStateInfo.getState().info === undefined) void useStateInfo.getState().load();
  }, []);
  const p = plan.value;
  // The new compaction as the reloaded history has it (with tokens after), else as run returned it.
  const newest = run.result ? (compactions.find((c) => c.id === run.result?.compaction.id) ?? run.result.compaction) : undefined;
  const blocked = !canWrite
    ? READ_ONLY_NOTE
    : store === 'openclaw-sqlite'
      ? "This session is in OpenClaw's SQLite session store, which Cairn only reads: compact it in OpenClaw (/compact there). The plan above shows what a compaction would do."
      : writable === false
        ? 'The state dir is read-only (Cairn did not create it): turn writing on in Settings to compact.'
        : p?.blockedReason;
  return (
    <div className="pane-scroll" data-testid="compaction-inspector">
      {plan.error && (
        <p role="alert" className="error">
          Could not plan a compaction: {plan.error}
        </p>
      )}
      {plan.loading && !p && <p className="muted">Planning (dry run, no model)…</p>}
      <CompactionAudit />
      {p && <DryRunPlan p={p} jumpTo={jumpTo} />}
      <section aria-labelledby="compact-title">
        <h2 id="compact-title">Compact now</h2>
        <div className="controls" style={{ gridTemplateColumns: '1fr auto auto' }}>
          <label>
            Instructions for the summary (optional)
            <textarea
              aria-label="Instructions for the summary"
              rows={2}
              value={instructions}
              onChange={(e) => setInstructions(e.target.value)}
              onBlur={() => void loadPlan()}
              placeholder="e.g. keep every port number and the deploy checklist"
            />
          </label>
          <label className="check-inline">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} aria-label="Compact everything (keep nothing verbatim)" />
            All (keep nothing)
          </label>
          <button type="button" onClick={() => void compactNow()} disabled={!!blocked || run.running || !p} aria-describedby={blocked ? 'compact-blocked' : undefined}>
            {run.running ? 'Compacting…' : 'Compact now'}
          </button>
        </div>
        {blocked && (
          <p id="compact-blocked" className="notice notice-warn" data-testid="compact-blocked">
            {blocked}
          </p>
        )}
        <Progress />
        {run.error && (
          <p role="alert" className="error">
            {run.error}
          </p>
        )}
        {run.result && newest && (
          <div data-testid="compact-result">
            <p className="muted">
              Compacted: {num(run.result.tokensBefore)} → {num(run.result.tokensAfter)} tokens
              {run.result.compaction.extract ? ` with the deterministic extract${run.result.extractReason ? ` (${run.result.extractReason})` : ''}` : ''}.
            </p>
            <CompactionCard info={newest} chain={compactions.filter((c) => c.ordinal < newest.ordinal)} onJump={jumpTo} />
          </div>
        )}
      </section>
      <section aria-labelledby="history-title">
        <h2 id="history-title">History ({compactions.length})</h2>
        {compactions.length === 0 && <p className="muted">This session has never been compacted.</p>}
        {[...compactions].reverse().map((c) => (
          <div key={c.id} style={{ marginBottom: 10 }}>
            <CompactionCard info={c} chain={compactions.filter((x) => x.ordinal < c.ordinal)} onJump={jumpTo} />
          </div>
        ))}
      </section>
    </div>
  );
}
