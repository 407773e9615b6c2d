/**
 * The two candidate sides on a real index file: vector scores are the cosine similarity of
 * the raw (unnormalised) vectors whichever path computes them (vec0 over unit vectors by L2,
 * or the in-process scan), and the keyword side's source/date filters hold with and without
 * the covering index (an index built before it existed still answers).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../electron/engine/index/db';
import { createBaseSchema, createVectorTable, writeMeta } from '../../electron/engine/index/schema';
import { createStore, type ChunkRow } from '../../electron/engine/index/store';
import { scanCandidates, vec0Candidates, type CandidateFilter } from '../../electron/engine/search/candidates';
import { lexicalCandidates } from '../../electron/engine/search/lexical';
import { PRUNE_FROM_CHUNKS } from '../../electron/engine/search/fts-query';
import type { MemorySource } from '../../shared/types/search';
import { memoryFixture } from '../helpers/memory-fixture';
import { tmpDir, writeTree } from '../helpers/tmp';
import { cosine } from '../helpers/vectors';

const DIMS = 4;


const docs: { text: string; source: MemorySource; day: string; vec: number[] }[] = [
  { text: 'deployed the gateway to staging', source: 'memory', day: '2024-05-01', vec: [3, 0, 0, 0] },
  { text: 'gateway timeout on staging again', source: 'sessions', day: '2024-05-02', vec: [2, 2, 0, 0] },
  { text: 'the gateway config moved', source: 'memory', day: '2024-06-10', vec: [0, 5, 1, 0] },
  { text: 'budget review on Thursday', source: 'memory', day: '2024-06-11', vec: [-1, 0, 0, 0.5] },
  { text: 'gateway gateway gateway restart', source: 'sessions', day: '2024-07-01', vec: [0.1, 0.1, 0.1, 0.2] },
];

function build(kind: 'vec0' | 'fallback'): Db {
  const file = path.join(tmpDir(), 'index.sqlite');
  const { db } = openDatabase(file, kind === 'vec0' ? {} : { loadVec: false });
  createBaseSchema(db);
  createVectorTable(db, DIMS, kind);
  writeMeta(db, 'chunkCount', String(docs.length));
  writeMeta(db, 'identity', JSON.stringify({ provider: 'p', model: 'm' }));
  const store = createStore(db, { provider: 'p', model: 'm', vectors: kind });
  const rows: ChunkRow[] = docs.map((d, i) => ({
    path: `memory/${i}.md`,
    source: d.source,
    startLine: 1,
    endLine: 1,
    hash: `h${i}`,
    text: d.text,
    heading: null,
    day: d.day,
    dated: true,
    evergreen: false,
    mtime: 0,
    body: d.text,
    vector: Float32Array.from(d.vec),
  }));
  db.transaction(() => store.insertChunks(rows))();
  // Chunk ids follow the days (store.ts dayKey), which rise with the docs: doc n has the
  // n-th id. The assertions below name docs by number.
  const ids = db.prepare('SELECT id FROM chunks ORDER BY id').pluck().all() as number[];
  docNumbers.set(db, new Map(ids.map((id, i) => [id, i + 1])));
  return db;
}

const docNumbers = new WeakMap<Db, Map<number, number>>();
/** The doc number (1-based, in `docs`) of chunk `id`. */
const num = (db: Db, id: number) => docNumbers.get(db)!.get(id)!;

const all = { sources: ['memory', 'sessions'] as MemorySource[] };

describe('vector candidates', () => {
  const query = [1, 1, 0, 0];
  const expected = docs
    .map((d, i) => ({ id: i + 1, score: Math.max(0, cosine(query, d.vec)) }))
    .sort((a, b) => b.score - a.score);

  it('vec0 scores are the cosine similarity of the raw vectors, best first', () => {
    const db = build('vec0');
    const got = vec0Candidates(db, Float32Array.from(query), 10, all);
    expect(got.map((c) => num(db, c.id)).slice(0, 4)).toEqual(expected.map((e) => e.id).slice(0, 4));
    for (const c of got) expect(c.score).toBeCloseTo(expected.find((e) => e.id === num(db, c.id))!.score, 5);
    // A vector pointing away scores 0 (clamped), not a negative similarity.
    expect(got.find((c) => num(db, c.id) === 4)!.score).toBe(0);
    db.close();
  });

  it('the in-process scan (no sqlite-vec) gives the same ids and scores as vec0', () => {
    const a = build('vec0');
    const b = build('fallback');
    for (const q of [query, [0, 1, 0, 0], [-2, 0.5, 3, 1]]) {
      const x = vec0Candidates(a, Float32Array.from(q), 3, all);
      const y = scanCandidates(b, Float32Array.from(q), 3, all);
      expect(y.map((c) => c.id)).toEqual(x.map((c) => c.id));
      y.forEach((c, i) => expect(c.score).toBeCloseTo(x[i]!.score, 6));
    }
    a.close();
    b.close();
  });

  it('honours the source and date filters', () => {
    const db = build('vec0');
    const got = vec0Candidates(db, Float32Array.from(query), 10, { sources: ['sessions'], since: '2024-05-02', before: '2024-07-01' });
    expect(got.map((c) => num(db, c.id))).toEqual([2]);
    db.close();
  });
});

describe('keyword candidates', () => {
  const ids = (db: Db, filter: CandidateFilter) => lexicalCandidates(db, 'gateway', 10, filter, { calibration: 'absolute', stemWeight: 0 }).map((c) => num(db, c.id)).sort();

  it('filters by source and date, through the covering index and without it', () => {
    const db = build('vec0');
    expect(ids(db, all)).toEqual([1, 2, 3, 5]);
    expect(ids(db, { sources: ['memory'] })).toEqual([1, 3]);
    expect(ids(db, { sources: ['sessions'], since: '2024-05-02' })).toEqual([2, 5]);
    expect(ids(db, { ...all, before: '2024-06-10' })).toEqual([1, 2]);
    // An index written before chunks_filter existed gives the same answers.
    db.exec('DROP INDEX chunks_filter');
    expect(ids(db, { sources: ['memory'] })).toEqual([1, 3]);
    expect(ids(db, { sources: ['sessions'], since: '2024-05-02' })).toEqual([2, 5]);
    db.close();
  });

  it('applies no source filter when the index holds only the asked sources, and filters when it holds more', () => {
    const db = build('vec0');
    // The identity says the index holds memory only (e.g. sessions off): asking for memory
    // searches everything without a filter — here that shows as session rows coming back.
    expect(ids(db, { sources: ['memory'], indexed: ['memory'] })).toEqual([1, 2, 3, 5]);
    expect(ids(db, { sources: ['memory'], indexed: ['memory', 'sessions'] })).toEqual([1, 3]);
    db.close();
  });
});

describe('keyword term pruning after the index changes', () => {
  it('uses the new document counts once a sync has changed them (no stale cache)', async () => {
    const files: Record<string, string> = {
      'workspace/memory/2024-01-01.md': 'alpha release notes\n',
      'workspace/memory/2024-01-02.md': 'beta feedback collected\n',
      'workspace/memory/2024-01-03.md': 'garden watering\n',
      'workspace/memory/2024-01-04.md': 'grocery list\n',
      'workspace/memory/2024-01-05.md': 'dentist appointment\n',
    };
    // Enough notes that common terms are pruned at all (a small memory keeps every term).
    const filler = (extra: string) =>
      Object.fromEntries(Array.from({ length: PRUNE_FROM_CHUNKS }, (_, i) => [`workspace/memory/n${i}.md`, `routine note ${i}${extra}\n`]));
    Object.assign(files, filler(''));
    const fx = memoryFixture(files);
    const idx = fx.open({ embedder: null });
    await idx.sync();
    const paths = async () => (await idx.search({ query: 'alpha beta', minScore: 0 })).results.map((r) => r.path).sort();
    expect(await paths()).toEqual(['memory/2024-01-01.md', 'memory/2024-01-02.md']);
    // "alpha" now occurs in most notes: BM25 gives it no weight, so the search drops it.
    writeTree(fx.root, {
      'workspace/memory/2024-01-03.md': 'garden watering alpha\n',
      'workspace/memory/2024-01-04.md': 'grocery list alpha\n',
      'workspace/memory/2024-01-05.md': 'dentist appointment alpha\n',
      ...filler(' alpha'),
    });
    await idx.sync();
    expect(await paths()).toEqual(['memory/2024-01-02.md']);
    await idx.dispose();
  });
});
