import { describe, expect, it } from 'vitest';
import { readSse } from '../../electron/engine/llm/sse';
import { backoffMs, DEFAULT_RETRY, retryAfterMs } from '../../electron/engine/llm/http';
import { isOverflowText } from '../../electron/engine/llm/errors';

function stream(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const ch of chunks) c.enqueue(enc.encode(ch));
      c.close();
    },
  });
}

async function collect(chunks: string[]) {
  const out: { event: string | undefined; data: string }[] = [];
  for await (const e of readSse(stream(chunks))) out.push(e);
  return out;
}

describe('SSE reader', () => {
  it('handles CRLF and CR line ends split across chunks, comments, multi-line data and a last event without a blank line', async () => {
    expect(
      await collect([': keep-alive\r', '\nevent: a\r\nda', 'ta: one\r\ndata: two\r', '\n\r\n', 'data: x\rdata:y\r\r', 'data: tail']),
    ).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: undefined, data: 'x\ny' },
      { event: undefined, data: 'tail' },
    ]);
  });

  it('decodes UTF-8 split inside a character', async () => {
    const bytes = new TextEncoder().encode('data: héllo 🌍\n\n');
    const s = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i++) c.enqueue(bytes.subarray(i, i + 1));
        c.close();
      },
    });
    const out: string[] = [];
    for await (const e of readSse(s)) out.push(e.data);
    expect(out).toEqual(['héllo 🌍']);
  });
});

describe('retry timing', () => {
  it('reads Retry-After as seconds, an HTTP date, or retry-after-ms', () => {
    const now = Date.parse('2026-11-30T10:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Mon, 30 Nov 2026 10:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({}), now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, capped', () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 10].map((a) => backoffMs(a, p, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 10].map((a) => backoffMs(a, p, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });

  it('does not mistake ordinary errors for a context overflow', () => {
    expect(isOverflowText('{"error":{"message":"Invalid model name","code":"model_not_found"}}')).toBe(false);
    expect(isOverflowText('rate limit reached for requests')).toBe(false);
    expect(isOverflowText('{"error":{"code":"context_length_exceeded"}}')).toBe(true);
  });
});
