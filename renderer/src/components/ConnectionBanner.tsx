/** The global connection state: shown on every page while the engine is unreachable or refuses the token. */
import { useConnection } from '../stores/connection';
import { useTabNote } from '../transport/tab';

export function ConnectionBanner() {
  const state = useConnection((s) => s.state);
  const attempts = useConnection((s) => s.attempts);
  const retryNow = useConnection((s) => s.retryNow);
  const tabNote = useTabNote((s) => s.note);
  if (state === 'online') return null;
  // The tab in OpenClaw's Control UI says what the Gateway host's Cairn is doing.
  if (tabNote) {
    const starting = tabNote.kind === 'starting';
    return (
      <div className={`banner ${starting ? '' : 'banner-fail'}`} role={starting ? 'status' : 'alert'} data-testid="connection-banner" data-state={tabNote.kind}>
        {tabNote.message}
        {starting ? ' This view appears as soon as it answers.' : ''}{' '}
        <button type="button" className="link" onClick={retryNow}>
          {starting ? 'Check now' : 'Try again'}
        </button>
      </div>
    );
  }
  if (state === 'unauthorized') {
    return (
      <div className="banner banner-fail" role="alert" data-testid="connection-banner" data-state={state}>
        Cairn restarted with a new access token, so this window can no longer reach it. Open the address Cairn printed when it started (it
        carries the new token).{' '}
        <button type="button" className="link" onClick={retryNow}>
          Try again
        </button>
      </div>
    );
  }
  return (
    <div className="banner banner-fail" role="alert" data-testid="connection-banner" data-state={state}>
      Disconnected: the Cairn engine is not reachable. What you see may be out of date; Cairn keeps retrying
      {attempts > 0 ? ` (${attempts} ${attempts === 1 ? 'try' : 'tries'} so far)` : ''}.{' '}
      <button type="button" className="link" onClick={retryNow}>
        Retry now
      </button>
    </div>
  );
}
