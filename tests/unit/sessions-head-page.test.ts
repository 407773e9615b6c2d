/**
 * The first timeline page of a big session comes from the head of its file (issue 14.2):
 * the user sees the first rows without waiting for the whole 100 MB parse. What they see
 * must be what the whole parse gives, and the next page must answer for the whole file.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { parseTranscript, parseTranscriptSliced } from '../../electron/engine/transcript/parse';
import { writeBigSession } from '../../testkit/big-inputs';
import { tmpDir } from '../helpers/tmp';

describe('sessions.entries on a big file: the first page from its head', () => {
  it('answers the first page from the head, the same rows as the whole parse, then pages the whole file', async () => {
    const stateDir = tmpDir();
    // 1,200 entries, every third tool result 120 KB: ~11 MB, above the 8 MB threshold.
    const big = writeBigSession(stateDir, 1_200, 120_000);
    expect(big.bytes).toBeGreaterThan(8 * 1024 * 1024);
    // A broken line far past the head: reported once the whole file is read.
    fs.appendFileSync(big.file, '{"type":"message", broken\n');

    const engine = createEngine({ stateDir });
    try {
      const api = createDirectClient(engine);
      const first = await api['sessions.entries']({ sessionId: big.sessionId, offset: 0, limit: 80 });
      expect(first.partial).toBeDefined();
      expect(first.partial!.bytesRead).toBeLessThan(big.bytes / 2);
      expect(first.entries).toHaveLength(80);

      // The next answer is for the whole file: its total and its malformed line.
      const whole = await api['sessions.entries']({ sessionId: big.sessionId, offset: 0, limit: 1000 });
      expect(whole.partial).toBeUndefined();
      expect(whole.total).toBe(1_200);
      expect(whole.malformed.map((m) => m.line)).toEqual([1_202]);
      // The head's rows are the whole parse's rows (ids, lines, tokens, context, text).
      expect(first.entries).toEqual(whole.entries.slice(0, 80));

      // A first page asked again goes the usual way (the file is parsed now).
      const again = await api['sessions.entries']({ sessionId: big.sessionId, offset: 0, limit: 80 });
      expect(again.partial).toBeUndefined();
      expect(again.total).toBe(1_200);
    } finally {
      await engine.dispose();
    }
  });

  it('a small file is paged the usual way (no partial answer)', async () => {
    const stateDir = tmpDir();
    const small = writeBigSession(stateDir, 400, 2_000);
    const engine = createEngine({ stateDir });
    try {
      const r = await createDirectClient(engine)['sessions.entries']({ sessionId: small.sessionId, offset: 0, limit: 80 });
      expect(r.partial).toBeUndefined();
      expect(r.total).toBe(400);
    } finally {
      await engine.dispose();
    }
  });

  it('parses a big file in slices: the engine answers other calls meanwhile', async () => {
    const stateDir = tmpDir();
    const big = writeBigSession(stateDir, 1_200, 120_000);
    const engine = createEngine({ stateDir });
    try {
      const api = createDirectClient(engine);
      const order: string[] = [];
      // The overview needs the whole parse; Status asked after it must not wait for it.
      const overview = api['sessions.overview']({ sessionId: big.sessionId }).then((o) => (order.push('overview'), o));
      const status = api['app.status']({ checks: false }).then(() => order.push('status'));
      const [o] = await Promise.all([overview, status]);
      expect(order).toEqual(['status', 'overview']);
      expect(o.points.length).toBeGreaterThan(0);
      // And the whole file is parsed once: the list and the pages see the same 1,200 entries.
      const list = await api['sessions.list']({});
      expect(list.sessions.find((x) => x.id === big.sessionId)?.entries).toBe(1_200);
    } finally {
      await engine.dispose();
    }
  });
});

describe('parseTranscriptSliced', () => {
  it('gives what parseTranscript gives, across slice boundaries, malformed and torn lines included', async () => {
    const lines = [
      '{"type":"session","version":3,"id":"s","timestamp":"2025-03-01T00:00:00.000Z","cwd":"/"}',
      ...Array.from({ length: 20 }, (_, i) => `{"type":"message","id":"e${String(i).padStart(7, '0')}","parentId":null,"timestamp":"2025-03-01T00:00:0${i % 10}.000Z","message":{"role":"user","content":"ask ${i}"}}`),
    ];
    lines.splice(7, 0, '{"type":"message", broken');
    lines.splice(12, 0, '');
    const text = `${lines.join('\n')}\n{"type":"mess`;
    const whole = parseTranscript('/x.jsonl', text, text.length);
    const sliced = await parseTranscriptSliced('/x.jsonl', text, text.length, () => Promise.resolve(), 3);
    expect(sliced).toEqual(whole);
    expect(sliced.malformed.map((m) => m.line)).toEqual([8, lines.length + 1]);
  });
});
