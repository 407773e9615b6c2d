/**
 * A server-sent-events reader over a fetch body: yields `{event, data}` per dispatched event
 * (multi-line `data:` joined with "\n", `:` comments skipped), as the WHATWG spec says.
 * Both streaming providers speak SSE; OpenAI ends with `data: [DONE]`, Anthropic with
 * `event: message_stop`.
 */
import { createParser } from 'eventsource-parser';
import { abortError, LlmHttpError } from './errors';
import { isAbortError } from '../util/abort';

/** One dispatched server-sent event. */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

/** No byte for this long ends a stream (a silently dropped connection); OpenAI's SDK waits as long. */
export const DEFAULT_IDLE_TIMEOUT_MS = 600_000;

/** The stream went silent for longer than the idle timeout. */
export class StreamIdleError extends LlmHttpError {
  constructor(readonly idleMs: number) {
    super(`no data from the server for ${idleMs < 1000 ? `${idleMs} ms` : `${Math.round(idleMs / 1000)} s`}; the connection looks dead`, undefined, true);
    this.name = 'StreamIdleError';
  }
}

/**
 * Iterate the SSE events of `body`; an abort of `signal` ends with an AbortError. Parsing is
 * eventsource-parser's (spec-correct line ends, BOM, comments, multi-line data; an event not
 * ended by a blank line when the stream closes is discarded, as the WHATWG spec says); this
 * function adds what the parser leaves to its caller: decoding, the idle timeout and abort.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const ready: SseEvent[] = [];
  const parser = createParser({ onEvent: (m) => ready.push({ event: m.event, data: m.data }) });
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      timer = setTimeout(() => {
        idle = true;
        void reader.cancel().catch(() => {});
      }, idleTimeoutMs);
      try {
        chunk = await reader.read();
      } catch (err) {
        if (isAbortError(err, signal)) throw abortError(signal);
        if (idle) throw new StreamIdleError(idleTimeoutMs);
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (idle) throw new StreamIdleError(idleTimeoutMs);
      if (signal?.aborted) throw abortError(signal);
      // At the end, one more LF ends a line still open (a lone CR at a chunk's end waits for a
      // possible LF in the parser); a last event without its blank line stays undispatched.
      parser.feed(chunk.done ? decoder.decode() + '\n' : decoder.decode(chunk.value, { stream: true }));
      while (ready.length) yield ready.shift()!;
      if (chunk.done) return;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    try {
      reader.releaseLock();
    } catch {
      // a read still pending after cancel(): the stream is finished either way
    }
  }
}
