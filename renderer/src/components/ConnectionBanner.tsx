/** The global connection state: shown on every page while the engine is unreachable or refuses the token. */
import { useConnection } from '../stores/connection';

export function ConnectionBanner() {
  const state = useConnection((s) => s.state);
  const attempts = useConnection((s) => s.attempts);
  const retryNow = useConnection((s) => s.retryNow);
  if (state === 'online') return null;
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
