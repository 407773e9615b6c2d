/**
 * The HTTP + SSE transport for `cairn serve`: the token arrives in the page URL once, is kept
 * in sessionStorage (the server also set an HttpOnly cookie) and sent as a Bearer header.
 * Every call and the event stream report the connection's health (transport/health.ts); the
 * stream is opened again once the engine answers after it had given up (a restarted server).
 */
import { isEventName, type Channel, type EventName, type Result } from '../../../shared/contract';
import type { Transport } from '../../../shared/client';
import { onHealth, reportHealth } from './health';

function takeToken(): string | undefined {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem('cairn.token', fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem('cairn.token') ?? undefined;
}

export function httpTransport(): Transport {
  const token = takeToken();
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  let source: EventSource | undefined;
  /** The stream was lost since it last opened (a reopen must resync the open page). */
  let streamGap = false;

  function ensureSource(): void {
    if (source) return;
    // Same origin: the HttpOnly cookie set with the page authenticates the stream.
    const es = new EventSource('/api/events');
    source = es;
    attached.clear();
    // The stream can come back after the calls do (EventSource retries on its own clock): an
    // event sent in between is lost, so a reopen after a gap asks the pages to read again.
    es.onopen = () => {
      reportHealth('up');
      if (streamGap) reportHealth('resync');
      streamGap = false;
    };
    es.onerror = () => {
      streamGap = true;
      reportHealth('down');
      // CLOSED: the browser gave up (e.g. the restarted server refused it); open a new one
      // when the engine answers again. Otherwise EventSource reconnects by itself.
      if (es.readyState === EventSource.CLOSED && source === es) source = undefined;
    };
    for (const name of listeners.keys()) attach(name);
  }
  onHealth((s) => {
    if (s === 'up' && !source && listeners.size > 0) ensureSource();
  });
  const attached = new Set<EventName>();
  function attach(name: EventName): void {
    if (!source || attached.has(name)) return;
    attached.add(name);
    source.addEventListener(name, (ev) => {
      const data = JSON.parse((ev as MessageEvent<string>).data) as unknown;
      for (const l of listeners.get(name) ?? []) l(data);
    });
  }

  return {
    async invoke(channel: Channel, request: unknown, opId?: string): Promise<Result<unknown>> {
      let res: Response;
      try {
        res = await fetch(`/api/call/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify({ request, opId }),
        });
      } catch (err) {
        reportHealth('down');
        return { ok: false, error: { code: 'unavailable', message: `The Cairn engine is not reachable (${(err as Error).message})` } };
      }
      if (res.status === 401 || res.status === 403) {
        reportHealth('unauthorized');
        return { ok: false, error: { code: 'forbidden', message: `${await res.text()} — open the address Cairn printed when it started` } };
      }
      reportHealth('up');
      return (await res.json()) as Result<unknown>;
    },
    subscribe(event, listener) {
      if (!isEventName(event)) throw new Error(`unknown event ${event}`);
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      ensureSource();
      attach(event);
      return () => set.delete(listener);
    },
  };
}
