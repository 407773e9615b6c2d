/** Status: what `cairn doctor` shows, live from the engine (each check as it completes), plus config and engine warnings. */
import { useEffect } from 'react';
import { useApp } from '../stores/app';
import { api } from '../api';
import { IndexStatusView } from '../components/IndexStatusView';
import { OpenClawConnectionView } from '../components/OpenClawConnection';

export function StatusPage() {
  const status = useApp((s) => s.status);
  const error = useApp((s) => s.statusError);
  const loading = useApp((s) => s.statusLoading);
  const loadStatus = useApp((s) => s.loadStatus);
  const live = useApp((s) => s.liveChecks);

  useEffect(() => {
    void loadStatus();
    const offs = [api.on('config.changed', () => void loadStatus()), api.on('engine.warning', () => void loadStatus())];
    return () => offs.forEach((off) => off());
  }, [loadStatus]);

  return (
    <section className="page" aria-labelledby="status-title">
      <header className="page-header">
        <h1 id="status-title">Status</h1>
        <button type="button" onClick={() => void loadStatus()} disabled={loading}>
          {loading ? 'Checking…' : 'Re-run checks'}
        </button>
      </header>
      {error && (
        <p role="alert" className="error">
          Could not read the engine status: {error}
        </p>
      )}
      {!status && !error && <p className="muted">Checking…</p>}
      {status && (
        <>
          <dl className="facts" data-testid="status-facts">
            <dt>State directory</dt>
            <dd data-testid="state-dir">{status.stateDir}</dd>
            <dt>Access</dt>
            <dd>
              {status.writable ? 'writable' : 'read-only'}
              {status.createdBy === 'external' ? ' (not created by Cairn)' : ''}
            </dd>
            <dt>Agents</dt>
            <dd>{status.agents.join(', ')}</dd>
            <dt>Config files</dt>
            <dd>{status.configFiles.length ? status.configFiles.join(', ') : 'none (defaults)'}</dd>
            <dt>Version</dt>
            <dd>{status.version}</dd>
          </dl>
          <h2>Memory index</h2>
          <IndexStatusView actions={false} />
          {status.checks.some((c) => c.id === 'openclaw-connection') && (
            <>
              <h2>OpenClaw</h2>
              <OpenClawConnectionView stateDir={status.stateDir} onChanged={() => void loadStatus()} />
            </>
          )}
          <h2>Checks</h2>
          {loading && (
            <p className="muted" role="status" data-testid="checks-progress">
              Checking… {live.length} done
            </p>
          )}
          <ul className="checks" aria-label="Checks" aria-busy={loading}>
            {(loading ? live : status.checks).map((c) => (
              <li key={c.id} className={`check check-${c.status}`} data-check={c.id}>
                <span className="badge">{c.status}</span>
                <strong>{c.label}</strong>
                <span className="check-detail">{c.detail}</span>
                {c.hint && c.status !== 'ok' && <span className="check-hint">{c.hint}</span>}
              </li>
            ))}
          </ul>
          {(status.configWarnings.length > 0 || status.warnings.length > 0) && (
            <>
              <h2>Warnings</h2>
              <ul className="warnings" aria-label="Warnings">
                {status.configWarnings.map((w, i) => (
                  <li key={`c${i}`} className="warning">
                    {w.message}
                  </li>
                ))}
                {status.warnings.map((w, i) => (
                  <li key={`e${i}`} className="warning">
                    {w}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </section>
  );
}
