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
 * The largest answer the tab carries (JSON characters). It travels as one JSON line through
 * OpenClaw's process, which is the Gateway everyone's channels run on. The window never asks
 * for one this big: long transcripts page (`sessions.entries`, `sessions.entryText`) and notes
 * are read in 4 MB pages of `memory.read` (renderer/src/stores/memory-read.ts); this guards
 * against a read the window does not make.
 */
export const MAX_TAB_ANSWER_CHARS = 64 * 1024 * 1024;

/**
 * Answer `{ channel, request }` with the dispatcher's Result. A channel outside the read list
 * is a `forbidden` Result, not a thrown error, so the tab can say why. The signal (the plugin's
 * budget ran out, OpenClaw went away) cancels the call through `op.cancel`.
 */
export async function tabRead(dispatcher: Dispatcher, req: Record<string, unknown>, signal?: AbortSignal, maxAnswerChars = MAX_TAB_ANSWER_CHARS): Promise<Result<unknown>> {
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
    const res = await dispatcher.dispatch(channel, request, opId);
    const size = res.ok ? JSON.stringify(res.value ?? null).length : 0;
    if (size > maxAnswerChars) {
      const mb = (n: number) => `${Math.ceil(n / 1024 / 1024)} MB`;
      return { ok: false, error: { code: 'unavailable', message: `${channel}: this answer is ${mb(size)}, more than the OpenClaw tab carries (${mb(maxAnswerChars)}): read it on the Gateway host with \`cairn\`, or in the app` } };
    }
    return res;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
