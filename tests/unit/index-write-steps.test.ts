/**
 * A rebuild with line vectors writes in pieces small enough to yield between (index/
 * write-steps.ts, embed-jobs.ts): a file's chunks go to the store in steps of a bounded
 * number of rows (a chunk counts 1 + its line vectors), new vectors go to the embedding cache
 * in steps of at most 128, and the finished index is the same as the one file-by-file writes give.
 * Observed through an injected store over a real SQLite file, never through timing.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/engine/index/db';
import { createBaseSchema, createVectorTable } from '../../electron/engine/index/schema';
import { createLineTables } from '../../electron/engine/index/line-vectors';
import { listSourceFiles } from '../../electron/engine/index/sources';
import { createStore, type Store } from '../../electron/engine/index/store';
import { syncFiles } from '../../electron/engine/index/sync';
import { writeSteps } from '../../electron/engine/index/write-steps';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { tmpDir, writeTree } from '../helpers/tmp';

const DIMS = 16;
/** write-steps.ts's rows per step (STEP_ROWS). */
const STEP_ROWS = 48;

/** A store that records the rows of each `insertChunks` call and the size of each `cachePut`. */
function recording(inner: Store): { store: Store; inserts: number[]; cachePuts: number[] } {
  const inserts: number[] = [];
  const cachePuts: number[] = [];
  const store: Store = {
    ...inner,
    insertChunks(chunks) {
      inserts.push(chunks.reduce((n, c) => n + 1 + (c.lineVectors?.length ?? 0), 0));
      inner.insertChunks(chunks);
    },
    replaceFile(file, chunks) {
      inserts.push(chunks.reduce((n, c) => n + 1 + (c.lineVectors?.length ?? 0), 0));
      inner.replaceFile(file, chunks);
    },
    cachePut(provider, model, entries, now) {
      cachePuts.push(entries.length);
      inner.cachePut(provider, model, entries, now);
    },
  };
  return { store, inserts, cachePuts };
}

describe('write steps', () => {
  it('cuts chunks by rows, a chunk with its line vectors never split', () => {
    const c = (lines: number) => ({ lineVectors: Array.from({ length: lines }, () => 0) });
    expect(writeSteps([c(10), c(10), c(10), c(30), c(100), c(1)], 48).map((s) => s.map((x) => x.lineVectors.length))).toEqual([[10, 10, 10], [30], [100], [1]]);
    // Without line vectors a step is 48 chunks, as before line vectors existed.
    expect(writeSteps(Array.from({ length: 100 }, () => ({}))).map((s) => s.length)).toEqual([48, 48, 4]);
    expect(writeSteps([], 48)).toEqual([]);
  });

  it('a bulk rebuild with line vectors writes a big file in bounded steps and the cache in steps of ≤ 128, same index as file-by-file', async () => {
    const root = tmpDir('cairn-steps-');
    // One big note (many chunks, several line units each) and a few small ones.
    const big = Array.from({ length: 400 }, (_, i) => `- item ${i}: the ${['kayak trip', 'budget review', 'deploy staging', 'garden tomatoes'][i % 4]} note number ${i} with enough words to stand as its own line`);
    const files: Record<string, string> = { 'workspace/MEMORY.md': `# Big\n${big.join('\n')}\n` };
    for (let d = 0; d < 5; d++) files[`workspace/memory/2026-01-0${d + 1}.md`] = `# Day ${d}\n- small note ${d} about the kayak and the budget review meeting\n`;
    writeTree(root, files);
    const listed = await listSourceFiles({ workspace: path.join(root, 'workspace'), sessionsDir: '', extraPaths: [], sources: ['memory'] });
    const embedder = new FakeEmbedder({ provider: 'local', dims: DIMS });
    const build = async (bulk: boolean) => {
      const { db } = openDatabase(path.join(root, `${bulk ? 'bulk' : 'plain'}.sqlite`), { loadVec: false });
      createBaseSchema(db);
      createVectorTable(db, DIMS, 'fallback');
      createLineTables(db, DIMS, 'fallback');
      const rec = recording(createStore(db, { provider: embedder.provider, model: embedder.id, vectors: 'fallback' }));
      expect(rec.store.lineVectors).toBe(true);
      const out = await syncFiles({ db, store: rec.store, embedder, files: listed, chunking: { tokens: 120, overlap: 16 }, cacheWrite: true, now: () => 0, bulk, embedWorker: 'off' });
      return { db, out, ...rec };
    };
    const bulk = await build(true);
    const plain = await build(false);
    const dbs: Db[] = [bulk.db, plain.db];
    try {
      expect(bulk.out).toEqual(plain.out);
      expect(bulk.out.chunks).toBeGreaterThan(40);
      const lines = bulk.db.prepare('SELECT COUNT(*) FROM chunk_lines').pluck().get() as number;
      expect(lines).toBeGreaterThan(bulk.out.chunks * 3);
      // The big file went to the store in many steps, each at most STEP_ROWS rows.
      expect(bulk.inserts.length).toBeGreaterThan(10);
      for (const rows of bulk.inserts) expect(rows).toBeLessThanOrEqual(STEP_ROWS);
      // Every new vector reached the cache, in writes of at most 128.
      expect(bulk.cachePuts.reduce((a, b) => a + b, 0)).toBe(bulk.out.embedded);
      expect(Math.max(...bulk.cachePuts)).toBeLessThanOrEqual(128);
      expect(bulk.out.embedded).toBeGreaterThan(128);
      const same = (sql: string) => {
        const [a, b] = dbs.map((db) => db.prepare(sql).all());
        expect(a!.length).toBeGreaterThan(0);
        expect(a).toEqual(b);
      };
      same('SELECT id, path, start_line, end_line, text FROM chunks ORDER BY id');
      same('SELECT id, chunk_id FROM chunk_lines ORDER BY id');
      same('SELECT rowid, embedding FROM lines_vec ORDER BY rowid');
      same('SELECT rowid, embedding FROM chunks_vec ORDER BY rowid');
      same('SELECT hash, embedding FROM embedding_cache ORDER BY hash');
    } finally {
      for (const db of dbs) db.close();
    }
  });
});
