/**
 * A server-sent-events reader over a fetch body: yields `{event, data}` per dispatched event
 * (multi-line `data:` joined with "\n", `:` comments skipped), as the WHATWG spec says.
 * Both streaming providers speak SSE; OpenAI ends with `data: [DONE]`, Anthropic with
 * `event: message_stop`.
 */
import { abortError, LlmHttpError } from './errors';

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

/** Iterate the SSE events of `body`; an abort of `signal` ends with an AbortError. */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal, idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let event: string | undefined;
  let data: string[] = [];
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      timer = setTimeout(() => {
        idle = true;
        void reader.cancel().catch(() => {});
      }, idleTimeoutMs);
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted || (err as Error).name === 'AbortError') throw abortError(signal);
        if (idle) throw new StreamIdleError(idleTimeoutMs);
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (idle) throw new StreamIdleError(idleTimeoutMs);
      if (signal?.aborted) throw abortError(signal);
      buf += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      // Split on CRLF, LF or CR; keep a trailing partial line (and a lone trailing CR) for later.
      let start = 0;
      for (let i = 0; i < buf.length; i++) {
        const c = buf.charCodeAt(i);
        if (c !== 10 && c !== 13) continue;
        if (c === 13 && i + 1 === buf.length && !chunk.done) break;
        const line = buf.slice(start, i);
        if (c === 13 && buf.charCodeAt(i + 1) === 10) i++;
        start = i + 1;
        if (line === '') {
          if (data.length) yield { event, data: data.join('\n') };
          event = undefined;
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'data') data.push(value);
        else if (field === 'event') event = value;
      }
      buf = buf.slice(start);
      if (chunk.done) {
        if (buf.startsWith('data:')) data.push(buf.slice(5).replace(/^ /, ''));
        if (data.length) yield { event, data: data.join('\n') };
        return;
      }
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
