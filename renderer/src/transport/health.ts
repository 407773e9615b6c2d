/**
 * What the transport learns about the engine connection, as signals with no dependencies:
 * the HTTP transport reports a call or the event stream failing, a refused token, or an answer;
 * the connection store (stores/connection.ts) turns them into the banner and the retry loop.
 */

/**
 * `down`: unreachable; `unauthorized`: reachable but the token is refused; `up`: answered;
 * `resync`: the event stream is open again after a gap, so events sent meanwhile were missed
 * and whatever is on screen must be read again.
 */
export type HealthSignal = 'up' | 'down' | 'unauthorized' | 'resync';

const listeners = new Set<(s: HealthSignal) => void>();

/** Report what a request or the event stream just showed. */
export function reportHealth(signal: HealthSignal): void {
  for (const l of listeners) l(signal);
}

/** Listen to health signals; returns the unsubscribe function. */
export function onHealth(listener: (s: HealthSignal) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
