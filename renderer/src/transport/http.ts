/**
 * The HTTP + SSE transport for `cairn serve`: the token arrives in the page URL once, is kept
 * in sessionStorage (the server also set an HttpOnly cookie) and sent as a Bearer header.
 */
import { isEventName, type Channel, type EventName, type Result } from '../../../shared/contract';
import type { Transport } from '../../../shared/client';

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

  function ensureSource(): void {
    if (source) return;
    // Same origin: the HttpOnly cookie set with the page authenticates the stream.
    source = new EventSource('/api/events');
    for (const name of listeners.keys()) attach(name);
  }
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
        return { ok: false, error: { code: 'unavailable', message: `Cairn server unreachable: ${(err as Error).message}` } };
      }
      if (res.status === 401 || res.status === 403) {
        return { ok: false, error: { code: 'forbidden', message: `${await res.text()} — open the URL printed by cairn serve` } };
      }
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
