/**
 * A server-sent-events reader over a fetch body: yields `{event, data}` per dispatched event
 * (multi-line `data:` joined with "\n", `:` comments skipped), as the WHATWG spec says.
 * Both streaming providers speak SSE; OpenAI ends with `data: [DONE]`, Anthropic with
 * `event: message_stop`.
 */
import { abortError } from './errors';

export interface SseEvent {
  event: string | undefined;
  data: string;
}

/** Iterate the SSE events of `body`; an abort of `signal` ends with an AbortError. */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let event: string | undefined;
  let data: string[] = [];
  const onAbort = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        if (signal?.aborted || (err as Error).name === 'AbortError') throw abortError(signal);
        throw err;
      }
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
