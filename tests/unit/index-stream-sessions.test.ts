/**
 * A transcript too big to hold whole (sessions source, past STREAM_FROM_BYTES) is indexed as
 * it is read: the streamed chunks are exactly the ones the whole-file path gives — the same
 * rendered `User:` / `Assistant:` / `Summary:` lines, the same JSONL line numbers, message
 * days, hashes and bodies, malformed and duplicate lines skipped, secrets redacted — however
 * the bytes are cut into pieces; and a sync writes the same rows and files row.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../electron/engine/index/chunker';
import { openDatabase } from '../../electron/engine/index/db';
import { prepareChunks, type PreparedChunk } from '../../electron/engine/index/prepare';
import { prepareSessionStream } from '../../electron/engine/index/prepare-stream';
import { createBaseSchema } from '../../electron/engine/index/schema';
import { listSourceFiles } from '../../electron/engine/index/sources';
import { createStore } from '../../electron/engine/index/store';
import { readTextPieces } from '../../electron/engine/index/stream-read';
import { syncFiles } from '../../electron/engine/index/sync';
import { STREAM_FROM_BYTES } from '../../electron/engine/index/sync-stream';
import { tmpDir, writeTree } from '../helpers/tmp';
import { unpackText } from '../../electron/engine/index/chunk-text';

const chunking = { tokens: 400, overlap: 80 };

/** A pi-v3 transcript of `turns` turns: tool calls and results, a compaction, odd lines, CRLF, days that change. */
function transcript(turns: number, eol = '\n'): string {
  const lines: string[] = [JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: '2025-03-01T00:00:00.000Z', cwd: '/tmp' })];
  let n = 0;
  let parent: string | null = null;
  const push = (body: Record<string, unknown>, id = `e${++n}`) => {
    lines.push(JSON.stringify({ id, parentId: parent, timestamp: new Date(Date.UTC(2025, 2, 1) + n * 3_600_000).toISOString(), ...body }));
    parent = id;
  };
  for (let i = 0; i < turns; i++) {
    push({ type: 'message', message: { role: 'user', content: `Ask ${i}: deploy build ${i} to staging?\nKey sk-ant-api03-${'x'.repeat(40)} inside.`, timestamp: i } });
    push({ type: 'message', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'hidden' }, { type: 'toolCall', id: `c${i}`, name: 'read', arguments: { path: `src/m${i}.ts` } }], stopReason: 'toolUse' } });
    push({ type: 'message', message: { role: 'toolResult', toolCallId: `c${i}`, toolName: 'read', content: [{ type: 'text', text: `tool output ${i} `.repeat(50) }], isError: false } });
    push({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: `Done ${i}: build ${i} is on staging. ${i % 17 === 0 ? 'long '.repeat(900) : ''}` }], stopReason: 'stop' } });
    if (i % 29 === 0) lines.push(''); // a blank line
    if (i % 31 === 0) lines.push('{"broken json'); // malformed: skipped
    if (i % 37 === 0) lines.push(JSON.stringify({ type: 'message', id: 'e1', parentId: null, message: { role: 'user', content: 'duplicate id: skipped' } }));
    if (i > 0 && i % 100 === 0) push({ type: 'compaction', summary: `## Decisions\n- builds up to ${i} shipped`, firstKeptEntryId: `e${n - 2}`, tokensBefore: 150000 });
  }
  lines.push('{"type":"message","id":"torn"'); // a torn final line, no newline
  return lines.join(eol);
}

async function collect(gen: AsyncIterable<PreparedChunk>): Promise<PreparedChunk[]> {
  const out: PreparedChunk[] = [];
  for await (const c of gen) out.push(c);
  return out;
}

describe('a big transcript indexed as a stream', () => {
  for (const [name, text] of Object.entries({ LF: transcript(300), CRLF: `${transcript(120, '\r\n')}\r\n`, empty: '', 'header only': transcript(0) })) {
    it(`gives the whole-file chunks: ${name}`, async () => {
      const dir = tmpDir('cairn-stream-sess-');
      const abs = path.join(dir, 's1.jsonl');
      fs.writeFileSync(abs, text);
      const file = { abs, path: 'sessions/s1.jsonl', source: 'sessions' as const };
      const expected = prepareChunks(file, text, 1_700_000_000_000, chunking);
      if (name === 'LF') {
        expect(expected.length).toBeGreaterThan(50);
        expect(expected.some((c) => c.text.includes('Summary: ## Decisions'))).toBe(true);
        expect(expected.some((c) => c.text.includes('sk-ant-api03-xxxx'))).toBe(false);
      }
      for (const pieceBytes of [61, 4093, 1 << 20]) {
        const got = await collect(prepareSessionStream(file, readTextPieces(abs, 1 << 30, pieceBytes), 1_700_000_000_000, chunking));
        expect(got).toEqual(expected);
      }
    }, 60_000);
  }

  it('a sync writes the same rows and files row as the whole-file path, in a rebuild and incrementally', async () => {
    const text = `${transcript(9_000)}\n`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(STREAM_FROM_BYTES);
    const root = writeTree(tmpDir('cairn-stream-sess-sync-'), { 'sessions/big.jsonl': text, 'workspace/MEMORY.md': '# Prefs\n' });
    const abs = path.join(root, 'sessions/big.jsonl');
    const listed = await listSourceFiles({ workspace: path.join(root, 'workspace'), sessionsDir: path.join(root, 'sessions'), extraPaths: [], sources: ['memory', 'sessions'] });
    const big = listed.find((f) => f.abs === abs)!;
    const expected = prepareChunks(big, text, fs.statSync(abs).mtimeMs, chunking);
    for (const bulk of [true, false]) {
      const { db } = openDatabase(path.join(root, `${bulk}.sqlite`), { loadVec: false });
      try {
        createBaseSchema(db);
        const store = createStore(db, { provider: null, model: null, vectors: 'none' });
        const out = await syncFiles({ db, store, embedder: null, files: listed, chunking, cacheWrite: false, now: () => 0, bulk });
        expect(out.unreadable).toEqual([]);
        const rows = (db.prepare('SELECT start_line, end_line, text, day, dated FROM chunks WHERE path = ? ORDER BY id').all(big.path) as Record<string, unknown>[]).map((r) => ({ ...r, text: unpackText(r.text as Buffer) }) as Record<string, unknown>);
        expect(rows).toEqual(expected.map((e) => ({ start_line: e.startLine, end_line: e.endLine, text: e.text, day: e.day, dated: e.dated ? 1 : 0 })));
        expect(db.prepare('SELECT hash, size FROM files WHERE path = ?').get(big.path)).toEqual({ hash: sha256(text), size: Buffer.byteLength(text) });
        expect(db.prepare(`SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '"build 8999 is on staging"'`).pluck().get()).toBe(1);
      } finally {
        db.close();
      }
    }
  }, 300_000);
});
