/**
 * A memory note bigger than STREAM_FROM_BYTES is indexed as a stream (sync-stream.ts) and
 * comes out exactly as the whole-text path would write it: the same chunk rows and the same
 * files row, in a full rebuild and in an incremental sync; an unchanged one is not
 * re-chunked; and one whose rows cannot be written is skipped whole, the rest indexed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../electron/engine/index/chunker';
import { openDatabase } from '../../electron/engine/index/db';
import { prepareChunks } from '../../electron/engine/index/prepare';
import { createBaseSchema } from '../../electron/engine/index/schema';
import { listSourceFiles } from '../../electron/engine/index/sources';
import { createStore, type Store } from '../../electron/engine/index/store';
import { syncFiles } from '../../electron/engine/index/sync';
import { STREAM_FROM_BYTES } from '../../electron/engine/index/sync-stream';
import { memoryFixture } from '../helpers/memory-fixture';
import { tmpDir, writeTree } from '../helpers/tmp';
import Database from 'better-sqlite3';
import { unpackText } from '../../electron/engine/index/chunk-text';

const chunking = { tokens: 400, overlap: 80 };

/** A note past the streaming threshold: headings, CRLF lines, CJK, blank lines, a long line, no final newline. */
function bigNote(): string {
  const out: string[] = [];
  for (let i = 0; i < 100_000; i++) {
    if (i % 97 === 0) out.push(`## Part ${i}`);
    else if (i % 13 === 0) out.push('');
    else if (i % 1001 === 0) out.push('long '.repeat(900));
    else if (i % 7 === 0) out.push(`会议 ${i}：部署和预算。\r`);
    else out.push(`- item ${i}: the deploy of build ${i} went to staging.`);
  }
  return out.join('\n');
}

const COLS = 'path, source, start_line, end_line, text, heading, day, dated, evergreen, mtime';

async function sync(root: string, dbName: string, bulk: boolean, wrap: (s: Store) => Store = (s) => s) {
  const listed = await listSourceFiles({ workspace: path.join(root, 'workspace'), sessionsDir: '', extraPaths: [], sources: ['memory'] });
  const { db } = openDatabase(path.join(root, dbName), { loadVec: false });
  createBaseSchema(db);
  const store = wrap(createStore(db, { provider: null, model: null, vectors: 'none' }));
  const out = await syncFiles({ db, store, embedder: null, files: listed, chunking, cacheWrite: false, now: () => 0, bulk });
  return { db, out };
}

describe('a big memory note indexed as a stream', () => {
  it('writes the same chunk rows and files row as the whole-text path, in a rebuild and incrementally; an unchanged note is not re-chunked', async () => {
    const text = bigNote();
    expect(Buffer.byteLength(text)).toBeGreaterThan(STREAM_FROM_BYTES);
    const root = writeTree(tmpDir('cairn-stream-sync-'), { 'workspace/memory/2024-05-08-big.md': text, 'workspace/MEMORY.md': '# Prefs\n\nDark mode.\n' });
    const abs = path.join(root, 'workspace/memory/2024-05-08-big.md');
    const mtime = fs.statSync(abs).mtimeMs;
    const expected = prepareChunks({ abs, path: 'memory/2024-05-08-big.md', source: 'memory' }, text, mtime, chunking);
    expect(expected.length).toBeGreaterThan(1_000);
    for (const bulk of [true, false]) {
      const { db, out } = await sync(root, `${bulk}.sqlite`, bulk);
      try {
        expect(out.unreadable).toEqual([]);
        const rows = (db.prepare(`SELECT ${COLS} FROM chunks WHERE path = ? ORDER BY id`).all('memory/2024-05-08-big.md') as Record<string, unknown>[]).map((r) => ({ ...r, text: unpackText(r.text as Buffer) }) as Record<string, unknown>);
        expect(rows.length).toBe(expected.length);
        rows.forEach((r, i) => {
          const e = expected[i]!;
          expect(r).toEqual({ path: e.path, source: e.source, start_line: e.startLine, end_line: e.endLine, text: e.text, heading: e.heading, day: e.day, dated: e.dated ? 1 : 0, evergreen: e.evergreen ? 1 : 0, mtime: r.mtime });
        });
        expect(db.prepare('SELECT hash, size FROM files WHERE path = ?').get('memory/2024-05-08-big.md')).toEqual({ hash: sha256(text), size: Buffer.byteLength(text) });
        expect(db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH '\"build 99998\"'").pluck().get()).toBe(1);
      } finally {
        db.close();
      }
    }
    // Only the mtime moved: the incremental index keeps its rows (same ids), the files row takes the new stamp.
    const { db: before } = openDatabase(path.join(root, 'false.sqlite'), { loadVec: false });
    const ids = before.prepare('SELECT id FROM chunks ORDER BY id').pluck().all();
    before.close();
    fs.utimesSync(abs, new Date(), new Date(Date.now() + 60_000));
    const { db, out } = await sync(root, 'false.sqlite', false);
    try {
      expect(out.changed).toEqual([]);
      expect(db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all()).toEqual(ids);
      expect(db.prepare('SELECT mtime FROM files WHERE path = ?').pluck().get('memory/2024-05-08-big.md')).toBe(Math.round(fs.statSync(abs).mtimeMs));
    } finally {
      db.close();
    }
  }, 300_000);

  for (const bulk of [true, false]) {
    it(`skips and names a streamed note whose rows fail part-way, keeps none of them, indexes the rest (${bulk ? 'full rebuild' : 'incremental'})`, async () => {
      const root = writeTree(tmpDir('cairn-stream-sync-'), { 'workspace/memory/big.md': bigNote(), 'workspace/memory/a.md': '# A\n\nThe vault is in Lisbon.\n', 'workspace/memory/z.md': '# Z\n\nThe ferry leaves at noon.\n' });
      // Fails once the note is well past its first parts, as SQLite does when a write hits a limit.
      const failing = (s: Store): Store => ({
        ...s,
        insertChunks(rows) {
          if (rows.some((r) => r.path === 'memory/big.md' && r.startLine > 30_000)) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
          s.insertChunks(rows);
        },
      });
      const { db, out } = await sync(root, 'x.sqlite', bulk, failing);
      try {
        expect(out.unreadable).toEqual([{ path: 'memory/big.md', reason: 'not indexed: SQLITE_FULL: database or disk is full' }]);
        expect(out.changed.sort()).toEqual(['memory/a.md', 'memory/z.md']);
        expect(db.prepare('SELECT path FROM files ORDER BY path').pluck().all()).toEqual(['memory/a.md', 'memory/z.md']);
        expect(db.prepare("SELECT count(*) FROM chunks WHERE path = 'memory/big.md'").pluck().get()).toBe(0);
        expect(db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'ferry OR lisbon'").pluck().get()).toBe(2);
        expect(db.inTransaction).toBe(false);
      } finally {
        db.close();
      }
    }, 300_000);
  }

  it('a rebuild cancelled part-way through the big note leaves the old index as it was', async () => {
    const fx = memoryFixture({ 'workspace/memory/big.md': bigNote(), 'workspace/MEMORY.md': '# Prefs\n\nThe vault is in Lisbon.\n' });
    const idx = fx.open();
    await idx.sync();
    const snapshot = () => {
      const db = new Database(fx.indexFile, { readonly: true });
      try {
        return db.prepare('SELECT id, path, start_line, text FROM chunks ORDER BY id').all();
      } finally {
        db.close();
      }
    };
    const before = snapshot();
    expect(before.length).toBeGreaterThan(1_000);
    const ac = new AbortController();
    const p = idx.sync({
      force: true,
      signal: ac.signal,
      // Some of the note's parts are written into the new file, more are still to be read.
      onProgress: (x) => {
        if (x.phase === 'write' && x.chunksDone >= 500) ac.abort();
      },
    });
    await expect(p).rejects.toThrow(/cancelled/);
    expect(snapshot()).toEqual(before);
    expect((await idx.search({ query: 'Lisbon' })).results[0]?.path).toBe('MEMORY.md');
    await idx.dispose();
  }, 300_000);
});
