/**
 * The bridge's `read` op: a contract call from the Cairn tab inside OpenClaw's Control UI
 * (openclaw-plugin/tab.js), answered by the engine's own dispatcher — the same validation and
 * handlers as the app and `cairn serve` — but only for the read-only channels of
 * shared/tab-door.ts. The tab's grant is read-only; so is this door, whatever a request says.
 */
import { isTabReadChannel } from '../../../shared/tab-door';
import type { Result } from '../../../shared/contract';
import type { Dispatcher } from '../rpc/dispatcher';

/** A request larger than this is refused: a read's arguments are a few ids and a query. */
const MAX_REQUEST_CHARS = 64 * 1024;

/**
 * Answer `{ channel, request }` with the dispatcher's Result. A channel outside the read list
 * is a `forbidden` Result, not a thrown error, so the tab can say why. The signal (the plugin's
 * budget ran out, OpenClaw went away) cancels the call through `op.cancel`.
 */
export async function tabRead(dispatcher: Dispatcher, req: Record<string, unknown>, signal?: AbortSignal): Promise<Result<unknown>> {
  const channel = req.channel;
  if (typeof channel !== 'string' || !isTabReadChannel(channel)) {
    return { ok: false, error: { code: 'forbidden', message: `${JSON.stringify(channel)} is not a read the OpenClaw tab may make: edit on the Gateway host with \`cairn\`, or in the app` } };
  }
  const request = req.request ?? {};
  if (JSON.stringify(request).length > MAX_REQUEST_CHARS) {
    return { ok: false, error: { code: 'bad_request', message: `${channel}: request over ${MAX_REQUEST_CHARS} characters` } };
  }
  const opId = globalThis.crypto.randomUUID();
  const onAbort = () => void dispatcher.dispatch('op.cancel', { opId });
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await dispatcher.dispatch(channel, request, opId);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
