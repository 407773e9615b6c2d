/**
 * Connecting Cairn to an OpenClaw state dir, and undoing it, in plain words: what connecting
 * adds (recall before every prompt, Cairn's notes and sessions behind OpenClaw's own
 * memory_search), that nothing of OpenClaw is switched off, and how to go back. Every change
 * is shown first (the exact diff of openclaw.json, from a dry run) and made only after the
 * person says yes — to that diff: if the file changed meanwhile, the engine refuses and the new
 * diff is shown instead. Used by the welcome's found folders (compact) and the Status page.
 */
import { useCallback, useEffect, useState } from 'react';
import type { OpenClawConnection, OpenClawConnectResult } from '../../../shared/contract/openclaw';
import { api } from '../api';
import './openclaw-connection.css';
import { scrollRegion } from './scroll-region';

/** What connecting does, for a person deciding whether to. */
export function OpenClawWhatItDoes({ stateDir, cli = true }: { stateDir: string; /** Also name the command line's undo (not on the welcome, which has no commands). */ cli?: boolean }) {
  return (
    <div className="openclaw-words" data-testid="openclaw-words">
      <p>
        <strong>What it adds.</strong> Before OpenClaw sends each of your messages to the model, Cairn searches your memory notes and past sessions and adds the best
        passages to that turn, each with where it comes from (<code>memory/…md#L3-L9</code>). The model no longer has to decide to search. OpenClaw’s own{' '}
        <code>memory_search</code> (with <code>corpus=all</code>) and <code>memory_get</code> also reach Cairn’s notes and sessions. The Sessions view shows what Cairn
        recalled for each turn.
      </p>
      <p>
        <strong>Nothing of OpenClaw is switched off.</strong> Its <code>memory_search</code> and <code>memory_get</code> tools, dreaming (the nightly consolidation into
        MEMORY.md), memory triggers and tool search stay as you set them. If Cairn is slow or not running, OpenClaw answers without it (it waits at most 300 ms).
      </p>
      <p>
        <strong>How to undo.</strong> Connecting changes <code>openclaw.json</code> (it loads Cairn’s plugin) and, when OpenClaw’s own <code>openclaw</code> command is found, lets it record the plugin’s install (so OpenClaw knows where it came from); it keeps a copy of the file in Cairn’s own folder.
        Undo puts the file back exactly as it was (if you edited it since, it takes only Cairn’s settings out and keeps your edits): the Undo button on the Status page
        {cli ? (
          <>
            , or <code>cairn connect openclaw --undo --state-dir {stateDir}</code>
          </>
        ) : null}
        .
      </p>
    </div>
  );
}

type Action = 'connect' | 'undo';

/**
 * The connection of `stateDir`, with Connect (or, on Status, Undo) behind a preview.
 * `compact`: the welcome's form — a button only, the words shown with the preview.
 */
export function OpenClawConnectionView({ stateDir, compact = false, onChanged }: { stateDir: string; compact?: boolean; /** Called after openclaw.json was changed (Status re-runs its checks). */ onChanged?: () => void }) {
  const [conn, setConn] = useState<OpenClawConnection | undefined>();
  const [preview, setPreview] = useState<{ action: Action; result: OpenClawConnectResult } | undefined>();
  const [done, setDone] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(() => {
    // `unavailable` (not built here) or any failure: nothing to show.
    api['openclaw.connection']({ stateDir }).then(setConn, () => setConn(undefined));
  }, [stateDir]);
  useEffect(refresh, [refresh]);

  async function run(action: Action, dryRun: boolean) {
    setBusy(true);
    setError(undefined);
    try {
      // The yes is for the change shown: its hash goes with it, and a file edited meanwhile is refused.
      const consent = dryRun ? {} : { expectDiffSha256: preview?.result.diffSha256 ?? '' };
      const result = await api['openclaw.connect']({ stateDir, dryRun, ...consent, ...(action === 'undo' ? { undo: true } : {}) });
      // Refused (`stale`): the new change is shown instead, to say yes to again.
      if (dryRun || result.stale) setPreview({ action, result });
      else {
        setPreview(undefined);
        setDone(result.message);
        refresh();
        onChanged?.();
      }
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  if (!conn) return null;
  if (compact && conn.connected && !done) {
    return <span className="muted">Connected to Cairn: recall before every prompt; nothing of OpenClaw is switched off.</span>;
  }
  if (compact && !conn.connected && !conn.canConnect) return null;
  if (compact && done) return <p role="status">{done}</p>;

  return (
    <div className="connect-openclaw" data-testid="openclaw-connection" data-connected={conn.connected}>
      {!compact && (
        <>
          <p data-testid="openclaw-state">
            {conn.connected ? 'Connected: Cairn recalls before every prompt of this OpenClaw, and nothing of OpenClaw is switched off.' : 'Not connected.'}{' '}
            <span className="muted">{conn.detail}</span>
          </p>
          {done && <p role="status">{done}</p>}
          <OpenClawWhatItDoes stateDir={conn.stateDir} />
        </>
      )}
      {!preview && (
        <div className="row">
          {!conn.connected && conn.canConnect && (
            <button type="button" disabled={busy} onClick={() => void run('connect', true)}>
              Connect Cairn to OpenClaw
            </button>
          )}
          {!compact && conn.connected && (
            <button type="button" disabled={busy} onClick={() => void run('undo', true)}>
              Undo the connection…
            </button>
          )}
          {!compact && !conn.canConnect && conn.reason && <span className="muted">{conn.reason}</span>}
        </div>
      )}
      {preview && (
        <div className="connect-preview" role="group" aria-label={preview.action === 'undo' ? 'What undoing changes' : 'What connecting changes'}>
          {compact && preview.action === 'connect' && <OpenClawWhatItDoes stateDir={conn.stateDir} cli={false} />}
          {preview.result.stale ? <p role="alert" className="error">{preview.result.message}</p> : <p>{preview.result.message}</p>}
          {preview.result.diff && (
            // The exact change, for whoever wants to check it before saying yes (open when it changed under them).
            <details open={preview.result.stale ? true : undefined}>
              <summary>The exact change to openclaw.json</summary>
              <pre className="connect-diff" {...scrollRegion('The exact change to openclaw.json')}>{preview.result.diff}</pre>
            </details>
          )}
          <div className="row">
            <button type="button" className="primary" disabled={busy} onClick={() => void run(preview.action, false)}>
              {preview.action === 'undo' ? 'Undo' : 'Connect'}
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
