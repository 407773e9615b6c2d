/**
 * The vector side at 384 d, alone, paired per query: the float vec0 scan of the layout
 * before schema 8 (exact), the int8 vec0 scan + exact re-score from `embedding_cache`
 * (`vec0Candidates`, what a one-shot search runs now), and the KNN worker's in-memory int8
 * copy (search/knn-cache.ts + vector-matrix.ts: SIMD scan, best limit × 4 re-scored from
 * the float copies on disk).
 *
 * N clustered unit vectors (real sentence embeddings have near neighbours; 300 centres)
 * go into a temp index file with the index's shapes (`build`). Queries are stored vectors
 * plus noise. Prints, per query (k = 40, the vector side's usual limit: maxResults 10 ×
 * candidateMultiplier 4), p50 / p95 of wall and CPU (on this thread: the worker adds a
 * message each way), the copy's load time and memory, and each answer against the float
 * scan's: recall of its top 40 and the largest cosine difference rank by rank.
 *
 *   node --import tsx --expose-gc bench/knn-matrix.ts [count=100000] [queries=40]
 *
 * The file goes to a temp dir and is removed at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { openDatabase, type Db } from '../electron/engine/index/db';
import { int8Blob, int8Vec, vecBlob } from '../electron/engine/index/store';
import { vec0Candidates, type Candidate } from '../electron/engine/search/candidates';
import { oversampled } from '../electron/engine/search/exact-vectors';
import { KnnCache } from '../electron/engine/search/knn-cache';
import { quantile, timedSync } from './lib/stats';

const D = 384;
const K = 40;
const ALL = { sources: ['memory' as const, 'sessions' as const] };

function clustered(centres: Float32Array[], noise: number): Float32Array {
  const c = centres[Math.floor(Math.random() * centres.length)]!;
  const v = new Float32Array(D);
  let n = 0;
  for (let i = 0; i < D; i++) {
    v[i] = c[i]! + (Math.random() - 0.5) * noise;
    n += v[i]! * v[i]!;
  }
  const inv = 1 / Math.sqrt(n);
  for (let i = 0; i < D; i++) v[i]! *= inv;
  return v;
}

/**
 * The index's vector layout (schema 8): `chunks (id, source, day, embed_hash)` with
 * `chunks_filter`, the floats in `embedding_cache`, `chunks_vec` as int8 vec0 with cosine —
 * plus, as the reference, the layout before it: `chunks_vec_f`, float vec0 by L2 over unit
 * vectors (its answers were exact).
 */
function build(file: string, count: number): Float32Array[] {
  const { db } = openDatabase(file);
  db.exec(`CREATE TABLE chunks (id INTEGER PRIMARY KEY, source TEXT NOT NULL, day TEXT, embed_hash TEXT);
    CREATE INDEX chunks_filter ON chunks(id, source, day);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE embedding_cache (provider TEXT NOT NULL, model TEXT NOT NULL, hash TEXT NOT NULL,
      dims INTEGER NOT NULL, embedding BLOB NOT NULL, updated_at INTEGER NOT NULL, PRIMARY KEY (provider, model, hash));
    CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding int8[${D}] distance_metric=cosine, source text, day text);
    CREATE VIRTUAL TABLE chunks_vec_f USING vec0(embedding float[${D}], source text, day text);`);
  db.prepare("INSERT INTO meta (key, value) VALUES ('identity', ?)").run(JSON.stringify({ provider: 'bench', model: 'clustered' }));
  const centres = Array.from({ length: 300 }, () => Float32Array.from({ length: D }, () => Math.random() - 0.5));
  const insC = db.prepare('INSERT INTO chunks (id, source, day, embed_hash) VALUES (?, ?, ?, ?)');
  const insE = db.prepare("INSERT INTO embedding_cache (provider, model, hash, dims, embedding, updated_at) VALUES ('bench', 'clustered', ?, ?, ?, 0)");
  const insV = db.prepare('INSERT INTO chunks_vec (rowid, embedding, source, day) VALUES (?, vec_int8(?), ?, ?)');
  const insF = db.prepare('INSERT INTO chunks_vec_f (rowid, embedding, source, day) VALUES (?, ?, ?, ?)');
  const queries: Float32Array[] = [];
  const BATCH = 20_000;
  for (let start = 1; start <= count; start += BATCH) {
    db.transaction(() => {
      for (let id = start; id < Math.min(count + 1, start + BATCH); id++) {
        const v = clustered(centres, 0.8);
        const source = id % 4 === 0 ? 'sessions' : 'memory';
        const day = `20${10 + (id % 15)}-0${1 + (id % 9)}-1${id % 10}`;
        const hash = createHash('sha256').update(String(id)).digest('hex');
        insC.run(id, source, day, hash);
        insE.run(hash, D, vecBlob(v));
        insV.run(BigInt(id), int8Blob(int8Vec(v)), source, day);
        insF.run(BigInt(id), vecBlob(v), source, day);
      }
    })();
  }
  for (let i = 0; i < 40; i++) queries.push(clustered(centres, 0.85));
  db.close();
  return queries;
}

/** The float vec0 scan of the layout before schema 8 (exact), as `vec0Candidates` ran it. */
function floatScan(db: Db, q: Float32Array, k: number, source?: string): Candidate[] {
  const where = source ? ` AND source = '${source}'` : '';
  const rows = db.prepare(`SELECT rowid AS id, distance FROM chunks_vec_f WHERE embedding MATCH ? AND k = ?${where} ORDER BY distance`).all(vecBlob(q), k) as { id: number; distance: number }[];
  return rows.map((r) => ({ id: Number(r.id), score: 0, raw: (r.distance * r.distance) / 2 }));
}

/** Resident anonymous memory (heap, WebAssembly memory, typed arrays), without mapped file pages. */
function anonRss(): number {
  const m = /RssAnon:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

function row(name: string, wall: number[], cpu: number[]): string {
  const f = (x: number) => x.toFixed(1);
  return `| ${name} | ${f(quantile(wall, 0.5))} / ${f(quantile(wall, 0.95))} | ${f(quantile(cpu, 0.5))} / ${f(quantile(cpu, 0.95))} |`;
}

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 100_000);
  const nq = Math.min(40, Number(process.argv[3] ?? 40));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-knn-matrix-'));
  const file = path.join(tmp, 'index.sqlite');
  try {
    const t0 = performance.now();
    const queries = build(file, count).slice(0, nq);
    const bytes = fs.statSync(file).size;
    console.error(`built ${count} vectors in ${((performance.now() - t0) / 1000).toFixed(0)} s, ${(bytes / 1e6).toFixed(0)} MB`);
    const { db } = openDatabase(file, { readonly: true });
    // Interleaved: the float scan (before) and the int8 scan + exact re-score (after) per query.
    const vec0: ReturnType<typeof timedSync<Candidate[]>>[] = [];
    const int8: ReturnType<typeof timedSync<Candidate[]>>[] = [];
    // With a source filter: vec0's own int8 KNN (the block scan takes unfiltered queries only).
    const vec0M: ReturnType<typeof timedSync<Candidate[]>>[] = [];
    const int8M: ReturnType<typeof timedSync<Candidate[]>>[] = [];
    const MEMORY = { sources: ['memory' as const], indexed: ALL.sources };
    floatScan(db, queries[0]!, K);
    vec0Candidates(db, queries[0]!, K, ALL);
    for (const q of queries) {
      vec0.push(timedSync(() => floatScan(db, q, K)));
      int8.push(timedSync(() => vec0Candidates(db, q, K, ALL)));
      vec0M.push(timedSync(() => floatScan(db, q, K, 'memory')));
      int8M.push(timedSync(() => vec0Candidates(db, q, K, MEMORY)));
    }

    (globalThis as { gc?: () => void }).gc?.();
    const rss0 = anonRss();
    const mem0 = process.memoryUsage();
    const cache = new KnnCache(() => openDatabase(file, { readonly: true }).db);
    const l0 = performance.now();
    const c0 = process.cpuUsage();
    await cache.ready();
    const loadMs = performance.now() - l0;
    const loadCpu = process.cpuUsage(c0);
    (globalThis as { gc?: () => void }).gc?.();
    const rss1 = anonRss();
    const mem1 = process.memoryUsage();
    for (const q of queries.slice(0, 3)) cache.query(db, q, K, ALL); // warm-up
    const copy = queries.map((q) => timedSync(() => cache.query(db, q, K, ALL)));

    /** Recall of the float scan's top K and the largest cosine difference rank by rank. */
    const against = (runs: { value: Candidate[] }[], ref = vec0) => {
      let hit = 0;
      let maxDiff = 0;
      queries.forEach((_, i) => {
        const want = ref[i]!.value;
        const got = runs[i]!.value;
        const ids = new Set(want.map((c) => c.id));
        hit += got.filter((c) => ids.has(c.id)).length / want.length;
        got.forEach((c, r) => (maxDiff = Math.max(maxDiff, Math.abs(c.raw - want[r]!.raw))));
      });
      return `recall@${K} ${(hit / nq).toFixed(4)}, largest cosine difference ${maxDiff.toExponential(1)}`;
    };
    db.close();
    console.log(`${count.toLocaleString('en')} × ${D} d, k = ${K}, ${nq} queries; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; file ${(bytes / 1e6).toFixed(0)} MB\n`);
    console.log('| vector side | wall p50 / p95 ms | CPU p50 / p95 ms |\n|---|---|---|');
    console.log(row('before: vec0 float scan (exact)', vec0.map((t) => t.wallMs), vec0.map((t) => t.cpuMs)));
    console.log(row(`one-shot: SIMD scan of vec0's int8 blocks, best ${oversampled(K)} + exact re-score`, int8.map((t) => t.wallMs), int8.map((t) => t.cpuMs)));
    console.log(row("before, source = 'memory': vec0 float scan (exact)", vec0M.map((t) => t.wallMs), vec0M.map((t) => t.cpuMs)));
    console.log(row(`source = 'memory': vec0 int8 cosine KNN, k = ${oversampled(K)}, + exact re-score`, int8M.map((t) => t.wallMs), int8M.map((t) => t.cpuMs)));
    console.log(row('in-memory int8 copy (SIMD scan) + exact re-score from disk', copy.map((t) => t.wallMs), copy.map((t) => t.cpuMs)));
    console.log(`\nint8 blocks: ${against(int8)}; vec0 int8 KNN (filtered): ${against(int8M, vec0M)}; copy: ${against(copy)}`);
    console.log(
      `copy: loaded in ${(loadMs / 1000).toFixed(2)} s wall (${((loadCpu.user + loadCpu.system) / 1e6).toFixed(2)} s CPU), ` +
        `anonymous RSS +${((rss1 - rss0) / 1e6).toFixed(0)} MB (the file's pages SQLite maps are not counted): ` +
        `JS heap used +${((mem1.heapUsed - mem0.heapUsed) / 1e6).toFixed(0)} MB, committed +${((mem1.heapTotal - mem0.heapTotal) / 1e6).toFixed(0)} MB; the int8 rows ${((cache.stats()?.bytes ?? 0) / 1e6).toFixed(0)} MB`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
