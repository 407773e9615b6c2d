/**
 * Each chunk vector kept once (schema 8): floats only in `embedding_cache`, `chunks_vec` an
 * int8 candidate generator. On a real index (the bench notes, the shipped potion embedder)
 * the vector side's answers — vec0 (its int8 KNN, or its int8 blocks scanned in-process), the
 * scan without sqlite-vec, and the KNN worker's copy —
 * carry the scores and order of an exact float scan; an index of the old layout rebuilds
 * once without embedding anything; and a capped cache never loses a vector a chunk needs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/engine/index/db';
import { readIdentity, writeMeta } from '../../electron/engine/index/schema';
import { blobVec, unitVec } from '../../electron/engine/index/store';
import { createPotionEmbedder } from '../../electron/engine/embed/potion';
import { scanCandidates, vec0Candidates, type Candidate, type CandidateFilter } from '../../electron/engine/search/candidates';
import { exactVectors, oversampled } from '../../electron/engine/search/exact-vectors';
import { startKnnWorker } from '../../electron/engine/search/knn-worker';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { writeTree } from '../helpers/tmp';

/** Results asked per query (maxResults 6 × candidateMultiplier 4 would be 24). */
const LIMIT = 8;
const NOTES = path.resolve(__dirname, '../../bench/eval-data/workspace');

/** Every chunk's float vector (unit length) with its filter columns, read from the one copy. */
function floats(db: Db): { id: number; source: string; day: string | null; v: Float32Array }[] {
  const rows = db.prepare('SELECT c.id, c.source, c.day, e.embedding FROM chunks c CROSS JOIN embedding_cache e ON e.id = c.embed_id ORDER BY c.id').all() as { id: number; source: string; day: string | null; embedding: Buffer }[];
  return rows.map((r) => ({ id: r.id, source: r.source, day: r.day, v: unitVec(blobVec(r.embedding)) }));
}

/** The exact scan: cosine distance of every passing chunk in double precision, nearest first. */
function exactScan(rows: ReturnType<typeof floats>, query: Float32Array, limit: number, f: CandidateFilter): { id: number; raw: number }[] {
  const q = unitVec(query);
  return rows
    .filter((r) => (f.sources.length !== 1 || r.source === f.sources[0]) && (!f.since || (r.day !== null && r.day >= f.since)) && (!f.before || (r.day !== null && r.day < f.before)))
    .map((r) => ({ id: r.id, raw: 1 - r.v.reduce((s, x, i) => s + x * q[i]!, 0) }))
    .sort((a, b) => a.raw - b.raw || a.id - b.id)
    .slice(0, limit);
}

/** Same scores rank by rank, and each chunk's score is its exact one (equal scores may swap). */
function expectExact(got: Candidate[], want: { id: number; raw: number }[]): void {
  expect(got.length).toBe(want.length);
  const exactOf = new Map(want.map((w) => [w.id, w.raw]));
  got.forEach((c, i) => {
    expect(Math.abs(c.raw - want[i]!.raw)).toBeLessThan(1e-6);
    if (exactOf.has(c.id)) expect(Math.abs(c.raw - exactOf.get(c.id)!)).toBeLessThan(1e-6);
  });
}

describe('one copy of each vector', () => {
  it('answers with the exact float scores and order: vec0 int8 + re-score, the scan without sqlite-vec, the KNN worker', async () => {
    const emb = await createPotionEmbedder();
    // Small chunks: ≈ 600 of them, many times what one query's int8 pass fetches.
    const fx = memoryFixture({}, settingsWith((s) => void Object.assign(s.chunking, { tokens: 20, overlap: 4 })));
    fs.cpSync(NOTES, fx.workspace, { recursive: true });
    const idx = fx.open({ embedder: emb });
    const plainFile = path.join(fx.root, 'plain.sqlite');
    const plain = fx.open({ embedder: emb, indexFile: plainFile, loadVec: false });
    await idx.sync();
    await plain.sync();
    const worker = await startKnnWorker(fx.indexFile);
    const { db } = openDatabase(fx.indexFile, { readonly: true });
    const fallback = openDatabase(plainFile, { readonly: true, loadVec: false }).db;
    try {
      expect(await worker.loaded()).toBe(true);
      // chunks_vec holds int8 vectors: vec0's blocks are 1 byte per dimension.
      const block = db.prepare('SELECT c.size, length(v.vectors) AS bytes FROM chunks_vec_chunks c JOIN chunks_vec_vector_chunks00 v ON v.rowid = c.chunk_id').get() as { size: number; bytes: number };
      expect(block.bytes).toBe(block.size * emb.dims);
      const rows = floats(db);
      const chunks = db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number;
      expect(rows.length).toBe(chunks);
      expect(chunks).toBeGreaterThan(8 * oversampled(LIMIT));
      const filters: CandidateFilter[] = [
        // No filter: vec0's int8 blocks scanned in-process (int8-scan.ts); with one, vec0's own KNN.
        { sources: ['memory', 'sessions'] },
        { sources: ['memory'] },
        { sources: ['memory'], since: '2026-07-01' },
        { sources: ['memory'], since: '2026-05-10', before: '2026-06-15' },
      ];
      const queries = ['what did we decide about the database', 'kayak trip', 'budget review meeting', 'dentist appointment', 'deploy to production failed'];
      for (const text of queries) {
        const [q] = await emb.embed([text]);
        for (const f of filters) {
          const want = exactScan(rows, q!, LIMIT, f);
          const got = vec0Candidates(db, q!, LIMIT, f);
          expectExact(got, want);
          // The three paths re-score the same way: identical answers.
          expect(scanCandidates(fallback, q!, LIMIT, f).map((c) => c.raw)).toEqual(got.map((c) => c.raw));
          expect(await worker.query(q!, LIMIT, f)).toEqual(got);
        }
      }
    } finally {
      db.close();
      fallback.close();
      await worker.close();
      await idx.dispose();
      await plain.dispose();
    }
  });

  it('rebuilds an index of the old layout (float chunks_vec, schema 7) once, embedding nothing, with the same results', async () => {
    const fx = memoryFixture({
      'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\n',
      'workspace/memory/2024-05-20.md': '# Budget\n\nThe Q3 budget review moved to Thursday.\nWe decided to migrate the database to Postgres.\n',
      'workspace/memory/garden.md': '# Garden\n\nTomatoes need watering every morning.\n',
    });
    const first = new FakeEmbedder();
    let idx = fx.open({ embedder: first });
    await idx.sync();
    const req = { query: 'database migration decision', maxResults: 5, minScore: 0 };
    const before = (await idx.search(req)).results.map((r) => [r.path, r.startLine, r.score]);
    expect(before.length).toBeGreaterThan(0);
    await idx.dispose();

    // The layout schema 7 wrote: float vectors in vec0 (unit length), no reference from chunks to the cache.
    const { db } = openDatabase(fx.indexFile);
    const vecs = db.prepare('SELECT c.id, c.source, c.day, e.embedding FROM chunks c JOIN embedding_cache e ON e.id = c.embed_id').all() as { id: number; source: string; day: string; embedding: Buffer }[];
    db.exec(`DROP TABLE chunks_vec; CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${first.dims}], source text, day text); ALTER TABLE chunks DROP COLUMN embed_id`);
    const ins = db.prepare('INSERT INTO chunks_vec (rowid, embedding, source, day) VALUES (?, ?, ?, ?)');
    for (const v of vecs) ins.run(BigInt(v.id), Buffer.from(unitVec(blobVec(v.embedding)).buffer), v.source, v.day);
    writeMeta(db, 'identity', JSON.stringify({ ...readIdentity(db)!, schema: 7 }));
    db.close();

    const counting = new FakeEmbedder();
    idx = fx.open({ embedder: counting });
    try {
      // Until it is rebuilt the old file answers, from its keyword side (its vectors are not
      // in the layout the vector side reads).
      const during = await idx.search(req);
      expect(during.results[0]?.path).toBe('memory/2024-05-20.md');
      expect(during.warnings.join('\n')).toMatch(/being rebuilt: keyword results only/);
      expect(counting.textsEmbedded).toBe(0); // not even the query: no vector side
      const res = await idx.sync();
      expect(res.full).toBe(true);
      expect(counting.textsEmbedded).toBe(0);
      const again = await idx.sync();
      expect(again.full).toBe(false);
      expect((await idx.search(req)).results.map((r) => [r.path, r.startLine, r.score])).toEqual(before);
      const sql = idx.snapshot()!.db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_vec'").pluck().get() as string;
      expect(sql).toContain('int8[');
    } finally {
      await idx.dispose();
    }
  });

  it('a cache capped by cache.maxEntries keeps every vector a chunk needs and drops only the others', async () => {
    const notes: Record<string, string> = {};
    for (let d = 1; d <= 9; d++) notes[`workspace/memory/2024-05-0${d}.md`] = `# Day ${d}\n\nNotes of day ${d}: the kayak, the budget and the garden.\n`;
    const fx = memoryFixture(notes, settingsWith((s) => void (s.cache.maxEntries = 2)));
    const emb = new FakeEmbedder();
    const idx = fx.open({ embedder: emb });
    try {
      await idx.sync();
      writeTree(fx.root, { 'workspace/memory/2024-05-01.md': '# Day 1\n\nRewritten: only the tomatoes now.\n' });
      await idx.sync();
      const db = idx.snapshot()!.db;
      const ids = db.prepare('SELECT id FROM chunks').pluck().all() as number[];
      expect(ids.length).toBeGreaterThan(2);
      // Every chunk still has its float vector; the rewritten note's old one is gone.
      expect(exactVectors(db, ids).size).toBe(ids.length);
      const needed = db.prepare('SELECT COUNT(DISTINCT embed_id) FROM chunks').pluck().get() as number;
      expect(db.prepare('SELECT COUNT(*) FROM embedding_cache').pluck().get()).toBe(needed);
      const res = await idx.search({ query: 'tomatoes', maxResults: 3, minScore: 0 });
      expect(res.results[0]?.path).toBe('memory/2024-05-01.md');
    } finally {
      await idx.dispose();
    }
  });
});
