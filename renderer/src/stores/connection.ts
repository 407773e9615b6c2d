/**
 * The engine connection as the whole app sees it: online, unreachable, or
 * refusing our token. While it is not online a probe (`app.status` without checks) retries
 * with backoff (0.5 s doubling to 8 s, or at once by "Retry now"); when it answers again
 * `epoch` goes up, so the shell remounts the open page and every page reloads its data
 * instead of showing results from before the outage as current.
 */
import { create } from 'zustand';
import { api } from '../api';
import { onHealth, type HealthSignal } from '../transport/health';

export type ConnectionState = 'online' | 'offline' | 'unauthorized';

interface Connection {
  state: ConnectionState;
  /** Failed probes in a row (drives the backoff). */
  attempts: number;
  /** When the next probe runs (ms since epoch), for the banner. */
  nextRetryAt: number | undefined;
  /** Incremented on every reconnect. */
  epoch: number;
  /** Probe now instead of waiting for the backoff. */
  retryNow(): void;
}

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 8000;
let timer: ReturnType<typeof setTimeout> | undefined;
let probing = false;
const waiters = new Set<() => void>();

export const useConnection = create<Connection>(() => ({
  state: 'online',
  attempts: 0,
  nextRetryAt: undefined,
  epoch: 0,
  retryNow() {
    if (timer) clearTimeout(timer);
    timer = undefined;
    void probe();
  },
}));

function schedule(): void {
  if (timer || probing) return;
  const { attempts } = useConnection.getState();
  const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempts);
  useConnection.setState({ nextRetryAt: Date.now() + delay });
  timer = setTimeout(() => {
    timer = undefined;
    void probe();
  }, delay);
}

async function probe(): Promise<void> {
  if (probing) return;
  probing = true;
  try {
    // The transport reports the outcome (up / down / unauthorized) through onHealth.
    await api['app.status']({ checks: false });
  } catch {
    useConnection.setState((s) => ({ attempts: s.attempts + 1 }));
  } finally {
    probing = false;
    if (useConnection.getState().state !== 'online') schedule();
  }
}

function onSignal(signal: HealthSignal): void {
  const cur = useConnection.getState();
  if (signal === 'resync') {
    // Online already, but events were missed while the stream was away: remount and reload.
    if (cur.state === 'online') useConnection.setState({ epoch: cur.epoch + 1 });
    return;
  }
  if (signal === 'up') {
    if (cur.state === 'online') return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    useConnection.setState({ state: 'online', attempts: 0, nextRetryAt: undefined, epoch: cur.epoch + 1 });
    for (const w of [...waiters]) w();
    waiters.clear();
    return;
  }
  const state: ConnectionState = signal === 'down' ? 'offline' : 'unauthorized';
  if (cur.state !== state) useConnection.setState({ state });
  schedule();
}

onHealth(onSignal);

/** Resolves when the engine answers again (at once when it is online). */
export function whenOnline(): Promise<void> {
  if (useConnection.getState().state === 'online') return Promise.resolve();
  return new Promise((resolve) => waiters.add(resolve));
}
