/**
 * The in-memory int8 vector copy the KNN worker scans (search/vector-matrix.ts): its
 * `oversampled(limit)` candidates hold the exact float nearest `limit` rows, under the
 * candidate filters, across growth, replacement and removal of rows.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../../electron/engine/app/demo/seed-writer';
import { int8Vec } from '../../electron/engine/index/store';
import { oversampled } from '../../electron/engine/search/exact-vectors';
import { VectorMatrix, type MatrixFilter } from '../../electron/engine/search/vector-matrix';

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** Clustered unit vectors (near neighbours exist, as in real embeddings). */
function vectors(count: number, dims: number, seed: number): Float32Array[] {
  const r = rng(seed);
  const centers = Array.from({ length: 30 }, () => Float32Array.from({ length: dims }, () => r() - 0.5));
  return Array.from({ length: count }, (_, i) => unit(centers[i % 30]!.map((c) => c + (r() - 0.5) * 0.6)));
}

interface Row {
  id: number;
  v: Float32Array;
  source: string;
  day: string | null;
}

function exact(rows: Row[], q: Float32Array, limit: number, f: MatrixFilter): { id: number; cosine: number }[] {
  const qu = unit(q);
  return rows
    .filter((r) => (f.source === null || r.source === f.source) && (f.since === null || (r.day !== null && r.day >= f.since)) && (f.before === null || (r.day !== null && r.day < f.before)))
    .map((r) => ({ id: r.id, cosine: 1 - r.v.reduce((s, x, i) => s + x * qu[i]!, 0) }))
    .sort((a, b) => a.cosine - b.cosine)
    .slice(0, limit);
}

/** The candidates hold every exact nearest row (what the exact re-score then orders). */
function expectSame(m: VectorMatrix, q: Float32Array, limit: number, f: MatrixFilter, want: { id: number }[]): void {
  const got = m.candidates(q, oversampled(limit), f);
  expect(got.length).toBeLessThanOrEqual(oversampled(limit));
  expect(new Set(got).size).toBe(got.length);
  const held = new Set(got);
  expect(want.filter((w) => !held.has(w.id))).toEqual([]);
  // Without a filter the pool is full; with one, only rows that pass it.
  if (want.length < limit) expect(got.length).toBe(want.length);
}

const ANY: MatrixFilter = { source: null, since: null, before: null };

describe('VectorMatrix', () => {
  const dims = 384;
  const vs = vectors(3_000, dims, 7);
  const rows: Row[] = vs.map((v, i) => ({
    id: 10 + i * 3,
    v,
    source: i % 3 === 0 ? 'sessions' : 'memory',
    day: i % 10 === 0 ? null : `2024-0${1 + (i % 9)}-1${i % 10}`,
  }));
  const queries = vectors(12, dims, 99);

  it('its candidates hold the exact nearest rows at 384 d, past several growths', () => {
    const m = new VectorMatrix(dims);
    for (const r of rows) m.upsert(r.id, int8Vec(r.v), r.source, r.day);
    expect(m.size).toBe(3_000);
    for (const q of queries) expectSame(m, q, 40, ANY, exact(rows, q, 40, ANY));
  });

  it('applies the source and day filters as the SQL filter does (a chunk without a day fails a date range)', () => {
    const m = new VectorMatrix(dims);
    for (const r of rows) m.upsert(r.id, int8Vec(r.v), r.source, r.day);
    const filters: MatrixFilter[] = [
      { source: 'sessions', since: null, before: null },
      { source: null, since: '2024-03-01', before: null },
      { source: 'memory', since: '2024-02-01', before: '2024-05-11' },
      { source: 'nowhere', since: null, before: null },
    ];
    for (const f of filters) for (const q of queries.slice(0, 4)) expectSame(m, q, 20, f, exact(rows, q, 20, f));
  });

  it('follows replaced and removed rows, and odd dimensions', () => {
    const d = 100; // not a multiple of 16: zero-padded blocks
    const small = vectors(700, d, 3);
    const m = new VectorMatrix(d);
    const live: Row[] = small.map((v, i) => ({ id: i + 1, v, source: 'memory', day: '2024-01-01' }));
    for (const r of live) m.upsert(r.id, int8Vec(r.v), r.source, r.day);
    const fresh = vectors(50, d, 11);
    for (let i = 0; i < 50; i++) {
      m.remove(live[i * 2]!.id); // every other of the first 100 is gone
      live[i * 2 + 1]!.v = fresh[i]!; // the others get a new vector
      m.upsert(live[i * 2 + 1]!.id, int8Vec(fresh[i]!), 'memory', '2024-01-01');
    }
    const kept = live.filter((_, i) => !(i < 100 && i % 2 === 0));
    expect(m.size).toBe(kept.length);
    for (const q of [...fresh.slice(0, 5), ...small.slice(0, 5)]) expectSame(m, q, 15, ANY, exact(kept, q, 15, ANY));
  });
});
