import { describe, expect, it } from 'vitest';
import { readSse } from '../../electron/engine/llm/sse';
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
  it('handles CRLF and CR line ends split across chunks, comments and multi-line data; a last event without a blank line is discarded (WHATWG)', async () => {
    expect(
      await collect([': keep-alive\r', '\nevent: a\r\nda', 'ta: one\r\ndata: two\r', '\n\r\n', 'data: x\rdata:y\r\r', 'data: tail']),
    ).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: undefined, data: 'x\ny' },
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

describe('provider errors', () => {
  it('does not mistake ordinary errors for a context overflow', () => {
    expect(isOverflowText('{"error":{"message":"Invalid model name","code":"model_not_found"}}')).toBe(false);
    expect(isOverflowText('rate limit reached for requests')).toBe(false);
    expect(isOverflowText('{"error":{"code":"context_length_exceeded"}}')).toBe(true);
  });
});
