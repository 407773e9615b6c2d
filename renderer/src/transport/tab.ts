/**
 * The transport of the tab in OpenClaw's Control UI: every call a GET
 * (`<api>/<channel>?k=<token>&q=<json request>`). The Gateway's grant for the frame rides only
 * on the frame's own navigation, so the page that navigation fetched carries a token for its
 * reads (openclaw-plugin/tab.js has the why); the page names the API base and token in meta
 * tags, and no call carries a cookie or a bearer token. Only the read-only channels of
 * shared/tab-door.ts are sent; anything else is refused here with the door's note. There is no
 * event stream behind this door: a view shows what it read (the browser revalidates each
 * answer by its ETag when the view reads again).
 */
import { create } from 'zustand';
import type { Transport } from '../../../shared/client';
import type { Channel, Result } from '../../../shared/contract';
import { isTabReadChannel, TAB_READ_ONLY_NOTE } from '../../../shared/tab-door';
import { reportHealth } from './health';

/** Why the tab cannot read right now, for the banner: Cairn starting, not running, or the grant gone. */
export interface TabNote {
  kind: 'starting' | 'unavailable' | 'grant';
  message: string;
}

/** The tab's latest note (undefined while reads succeed). */
export const useTabNote = create<{ note: TabNote | undefined }>(() => ({ note: undefined }));

const meta = (name: string): string => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';

export function tabTransport(): Transport {
  const base = meta('cairn-tab-api') || './api/';
  const key = meta('cairn-tab-key');
  const fail = (note: TabNote, code: 'unavailable' | 'forbidden'): Result<unknown> => {
    useTabNote.setState({ note });
    return { ok: false, error: { code, message: note.message } };
  };
  return {
    async invoke(channel: Channel, request: unknown): Promise<Result<unknown>> {
      if (!isTabReadChannel(channel)) return { ok: false, error: { code: 'forbidden', message: TAB_READ_ONLY_NOTE } };
      const url = `${base}${encodeURIComponent(channel)}?k=${encodeURIComponent(key)}&q=${encodeURIComponent(JSON.stringify(request ?? {}))}`;
      let res: Response;
      try {
        res = await fetch(url, { credentials: 'omit' });
      } catch (err) {
        reportHealth('down');
        return fail({ kind: 'unavailable', message: `The Gateway is not reachable (${(err as Error).message})` }, 'unavailable');
      }
      const body = (await res.json().catch(() => undefined)) as (Result<unknown> & { error?: { starting?: boolean; expired?: boolean } }) | undefined;
      if (res.status === 401 || res.status === 403) {
        // An idle page's token expired: load the page again (its navigation carries the grant).
        if (body && !body.ok && body.error.expired && performance.now() > 5000) window.location.reload();
        reportHealth('unauthorized');
        return fail({ kind: 'grant', message: body && !body.ok ? body.error.message : "The Control UI's access for this tab ended: open the tab again from the Control UI." }, 'forbidden');
      }
      if (!body) {
        reportHealth('down');
        return fail({ kind: 'unavailable', message: `The Cairn tab answered ${res.status} without a result` }, 'unavailable');
      }
      if (res.status === 503) {
        reportHealth('down');
        const starting = !body.ok && body.error.starting === true;
        return fail({ kind: starting ? 'starting' : 'unavailable', message: body.ok ? 'Cairn is not available' : body.error.message }, 'unavailable');
      }
      useTabNote.setState({ note: undefined });
      reportHealth('up');
      return body;
    },
    subscribe() {
      return () => {};
    },
  };
}
