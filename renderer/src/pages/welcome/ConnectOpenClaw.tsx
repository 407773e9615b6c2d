/**
 * "Connect Cairn to OpenClaw" beside a found OpenClaw folder: shown only when the engine can
 * connect (`openclaw.connection` answers, and not `unavailable`); the click first shows what
 * would change in openclaw.json (a dry run's diff) and connects only after "Connect".
 */
import { useEffect, useState } from 'react';
import type { OpenClawConnection, OpenClawConnectResult } from '../../../../shared/contract/openclaw';
import { api } from '../../api';

export function ConnectOpenClaw({ stateDir }: { stateDir: string }) {
  const [conn, setConn] = useState<OpenClawConnection | undefined>();
  const [preview, setPreview] = useState<OpenClawConnectResult | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // `unavailable` (not built here) or any failure: no button, nothing to say.
    api['openclaw.connection']({ stateDir }).then(setConn, () => setConn(undefined));
  }, [stateDir]);

  if (!conn) return null;
  if (conn.connected) return <span className="muted">Connected to Cairn.</span>;
  if (!conn.canConnect) return null;

  async function run(dryRun: boolean) {
    setBusy(true);
    setError(undefined);
    try {
      const r = await api['openclaw.connect']({ stateDir, dryRun });
      if (dryRun) setPreview(r);
      else {
        setPreview(undefined);
        setDone(r.message);
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  if (done) return <p role="status">{done}</p>;
  return (
    <div className="connect-openclaw">
      {!preview && (
        <button type="button" disabled={busy} onClick={() => void run(true)}>
          Connect Cairn to OpenClaw
        </button>
      )}
      {preview && (
        <div className="connect-preview" role="group" aria-label="What connecting changes">
          <p>{preview.message}</p>
          {preview.diff && (
            // The exact change, for whoever wants to check it before saying yes.
            <details>
              <summary>The exact change to openclaw.json</summary>
              <pre className="connect-diff">{preview.diff}</pre>
            </details>
          )}
          <div className="row">
            <button type="button" className="primary" disabled={busy} onClick={() => void run(false)}>
              Connect
            </button>
            <button type="button" disabled={busy} onClick={() => setPreview(undefined)}>
              Not now
            </button>
          </div>
        </div>
      )}
      {error && <p className="error">{error}</p>}
    </div>
  );
}
