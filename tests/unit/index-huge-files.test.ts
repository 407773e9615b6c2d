/**
 * Files of any size index, and one file that cannot be written stops only itself. A full
 * rebuild (one bulk transaction, FTS5 merging paused) used to fail with "database or disk
 * is full" as soon as one file had ~4,000 chunks (an 8.5 MB note at the default chunking):
 * every chunk became its own FTS5 segment, up to FTS5's limit of 2,000.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/engine/index/db';
import { createBaseSchema } from '../../electron/engine/index/schema';
import { listSourceFiles } from '../../electron/engine/index/sources';
import { createStore, type Store } from '../../electron/engine/index/store';
import { syncFiles } from '../../electron/engine/index/sync';
import { writeBigMemoryFile, writeBigSession } from '../../testkit/big-inputs';
import { runCairn } from '../helpers/cli';
import { tmpDir, writeTree } from '../helpers/tmp';

/** A note of `lines` numbered lines, so every chunk is distinct. */
function manyLines(lines: number, tag: string): string {
  return Array.from({ length: lines }, (_, i) => `- ${tag} line ${i}: the deploy of build ${i} went to staging.`).join('\n');
}

async function sync(root: string, bulk: boolean, wrap: (s: Store) => Store = (s) => s) {
  const listed = await listSourceFiles({ workspace: path.join(root, 'workspace'), sessionsDir: '', extraPaths: [], sources: ['memory'] });
  const { db } = openDatabase(path.join(root, `${bulk ? 'bulk' : 'plain'}.sqlite`), { loadVec: false });
  createBaseSchema(db);
  const store = wrap(createStore(db, { provider: null, model: null, vectors: 'none' }));
  const out = await syncFiles({ db, store, embedder: null, files: listed, chunking: { tokens: 16, overlap: 0 }, cacheWrite: false, now: () => 0, bulk });
  return { db, out };
}

describe('huge files in the memory index', () => {
  it('a full rebuild indexes one file of 6,000 chunks (keyword and stemmed tables alike)', async () => {
    const root = writeTree(tmpDir('cairn-huge-'), { 'workspace/memory/big.md': manyLines(6_000, 'alpha'), 'workspace/memory/small.md': '# Small\n\nKayak trip planned.\n' });
    const { db, out } = await sync(root, true);
    try {
      expect(out.unreadable).toEqual([]);
      expect(out.files).toBe(2);
      expect(out.chunks).toBeGreaterThan(5_000);
      const hits = (table: string, q: string) => db.prepare(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck().get(q);
      expect(hits('chunks_fts', '"alpha line 5999"')).toBe(1);
      expect(hits('chunks_fts_stem', 'deployed')).toBe(out.chunks - 1);
      expect(hits('chunks_fts', 'kayak')).toBe(1);
    } finally {
      db.close();
    }
  }, 120_000);

  for (const bulk of [true, false]) {
    it(`skips and names a file whose rows cannot be written, and indexes the rest (${bulk ? 'full rebuild' : 'incremental'})`, async () => {
      const root = writeTree(tmpDir('cairn-huge-'), {
        'workspace/memory/a.md': '# A\n\nThe vault is in Lisbon.\n',
        'workspace/memory/bad.md': manyLines(200, 'bad'),
        'workspace/memory/c.md': '# C\n\nThe ferry leaves at noon.\n',
      });
      // A store that fails on one file's rows, as SQLite does when a write hits a limit.
      const failing = (s: Store): Store => ({
        ...s,
        insertChunks(rows) {
          if (rows.some((r) => r.path === 'memory/bad.md')) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
          s.insertChunks(rows);
        },
        replaceFile(file, rows) {
          if (file.path === 'memory/bad.md') throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
          s.replaceFile(file, rows);
        },
      });
      const { db, out } = await sync(root, bulk, failing);
      try {
        expect(out.unreadable).toEqual([{ path: 'memory/bad.md', reason: 'not indexed: SQLITE_FULL: database or disk is full' }]);
        expect(db.prepare('SELECT path FROM files ORDER BY path').pluck().all()).toEqual(['memory/a.md', 'memory/c.md']);
        expect(db.prepare("SELECT count(*) FROM chunks WHERE path = 'memory/bad.md'").pluck().get()).toBe(0);
        expect(db.prepare("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'ferry OR lisbon'").pluck().get()).toBe(2);
        expect(db.inTransaction).toBe(false);
      } finally {
        db.close();
      }
    });
  }

  it('`cairn index --force` indexes a 200 MB note and a 100 MB transcript', async () => {
    const dir = tmpDir('cairn-huge-cli-');
    // Big chunks keep the run short; at ~12k and ~6k chunks both files are still far past the
    // ~4,000 chunks that one file could hold before.
    const settings = { provider: 'none', sources: ['memory', 'sessions'], chunking: { tokens: 4000, overlap: 0 } };
    writeTree(dir, { 'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: settings } } }), 'workspace/MEMORY.md': '# Long-term\n\nPrefers dark mode.\n' });
    const note = writeBigMemoryFile(dir, 200 * 1024 * 1024);
    fs.appendFileSync(path.join(dir, 'workspace', note), '\n## Last\n\nThe harbour code is zebra-quartz-91.\n');
    const session = writeBigSession(dir);
    expect(session.bytes).toBeGreaterThan(95 * 1024 * 1024);
    const res = await runCairn(['index', '--force', '--json', '--state-dir', dir], { timeoutMs: 600_000 });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const j = JSON.parse(res.stdout) as { files: number; chunks: number; unreadable: unknown[] };
    expect(j.unreadable).toEqual([]);
    expect(j.files).toBe(3);
    const found = await runCairn(['search', 'zebra-quartz-91', '--json', '--state-dir', dir], { timeoutMs: 120_000 });
    expect(found.code).toBe(0);
    expect(found.stdout).toContain(note);
  }, 900_000);
});
