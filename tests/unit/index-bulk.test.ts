/**
 * The bulk rebuild (index/sync.ts `bulk`, index/bulk-fts.ts): one long transaction with
 * FTS5 merging done in steps gives the same keyword index as file-by-file writes, and
 * leaves FTS5's default merge settings in the finished file.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/engine/index/db';
import { createBaseSchema } from '../../electron/engine/index/schema';
import { listSourceFiles } from '../../electron/engine/index/sources';
import { createStore } from '../../electron/engine/index/store';
import { syncFiles } from '../../electron/engine/index/sync';
import { tmpDir, writeTree } from '../helpers/tmp';

const QUERIES = ['deploy', 'budget AND review', 'kayak OR garden', '"retry logic"', 'note17', 'staging NOT budget'];

describe('bulk rebuild', () => {
  it('builds the same keyword index as file-by-file writes, and restores FTS5 merge settings', async () => {
    const root = tmpDir('cairn-bulk-');
    const files: Record<string, string> = {};
    // ~3,000 chunks' worth of short notes: several commits and FTS5 merges in bulk mode.
    for (let d = 0; d < 120; d++) {
      const lines = [`# Day ${d}`];
      for (let i = 0; i < 40; i++) {
        lines.push(`- note${i} day${d}: ${['deploy staging', 'budget review', 'kayak trip', 'garden tomatoes', 'retry logic'][(d + i) % 5]} ${d * 1000 + i}`);
      }
      files[`workspace/memory/notes/n${String(d).padStart(3, '0')}.md`] = `${lines.join('\n')}\n`;
    }
    writeTree(root, files);
    const listed = await listSourceFiles({ workspace: path.join(root, 'workspace'), sessionsDir: '', extraPaths: [], sources: ['memory'] });
    const build = async (bulk: boolean) => {
      const { db } = openDatabase(path.join(root, `${bulk ? 'bulk' : 'plain'}.sqlite`), { loadVec: false });
      createBaseSchema(db);
      const store = createStore(db, { provider: null, model: null, vectors: 'none' });
      // Small chunks: many rows from little text.
      const out = await syncFiles({ db, store, embedder: null, files: listed, chunking: { tokens: 40, overlap: 8 }, cacheWrite: false, now: () => 0, bulk });
      return { db, out };
    };
    const bulk = await build(true);
    const plain = await build(false);
    try {
      expect(bulk.out.chunks).toBeGreaterThan(1500);
      expect(bulk.out).toEqual(plain.out);
      const rows = (sql: string) => [bulk.db, plain.db].map((db) => db.prepare(sql).all());
      const [a, b] = rows('SELECT id, path, start_line, end_line, text FROM chunks ORDER BY id');
      expect(a).toEqual(b);
      for (const q of QUERIES) {
        const [x, y] = [bulk.db, plain.db].map((db) =>
          db.prepare('SELECT rowid, round(bm25(chunks_fts), 9) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid').all(q),
        );
        expect(x!.length).toBeGreaterThan(0);
        expect(x).toEqual(y);
      }
      const config = Object.fromEntries(
        (bulk.db.prepare("SELECT k, v FROM chunks_fts_config WHERE k IN ('automerge', 'crisismerge')").all() as { k: string; v: number }[]).map((r) => [r.k, r.v]),
      );
      expect(config).toEqual({ automerge: 4, crisismerge: 16 });
      expect(bulk.db.inTransaction).toBe(false);
    } finally {
      bulk.db.close();
      plain.db.close();
    }
  });
});
