/**
 * The vector side on a built index (e.g. the 1M one `bench/search-lines.ts 1m off keep`
 * leaves), 384-d feature-hashed query vectors as that bench embeds them: per query, CPU of the
 * one-shot paths (`vec0Candidates` without a filter: vec0's int8 blocks scanned in-process;
 * with a source filter: vec0's int8 KNN) and of the KNN worker's int8 copy, each re-scored
 * exactly; the copy's load time and memory; and recall@k of each against an exact float scan
 * of every chunk (read from `embedding_cache`, streamed) for the first `exact` queries.
 *
 *   node --import tsx --expose-gc bench/vector-side-index.ts <index.sqlite> [exact=5]
 */
import fs from 'node:fs';
import os from 'node:os';
import { openDatabase } from '../electron/engine/index/db';
import { readIdentity } from '../electron/engine/index/schema';
import { blobVec, unitVec } from '../electron/engine/index/store';
import { floatJoin } from '../electron/engine/index/vector-cache';
import { vec0Candidates, type Candidate, type CandidateFilter } from '../electron/engine/search/candidates';
import { KnnCache } from '../electron/engine/search/knn-cache';
import { FakeEmbedder } from '../testkit/fake-embedder';
import { LATENCY_QUERIES } from './lib/search-child';
import { quantile, timedSync } from './lib/stats';

const K = 24; // maxResults 6 × candidateMultiplier 4: the vector side's default limit

function anonRss(): number {
  const m = /RssAnon:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: bench/vector-side-index.ts <index.sqlite> [exact]');
  const nExact = Number(process.argv[3] ?? 5);
  const { db } = openDatabase(file, { readonly: true });
  const id = readIdentity(db)!;
  const embedder = new FakeEmbedder({ provider: 'local', model: 'hash-384', dims: 384 });
  const queries = await embedder.embed([...LATENCY_QUERIES]);
  const all: CandidateFilter = { sources: ['memory', 'sessions'], indexed: ['memory', 'sessions'] };
  const memory: CandidateFilter = { sources: ['memory'], indexed: ['memory', 'sessions'] };
  const chunks = db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number;

  const f = (xs: number[]) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)}`;
  const runs = (fn: (q: Float32Array) => Candidate[]) => queries.map((q) => timedSync(() => fn(q)));
  const blocks = runs((q) => vec0Candidates(db, q, K, all));
  const filtered = runs((q) => vec0Candidates(db, q, K, memory));

  (globalThis as { gc?: () => void }).gc?.();
  const rss0 = anonRss();
  const cache = new KnnCache(() => openDatabase(file, { readonly: true }).db);
  const l0 = performance.now();
  const c0 = process.cpuUsage();
  await cache.ready();
  const loadS = (performance.now() - l0) / 1000;
  const loadCpu = process.cpuUsage(c0);
  (globalThis as { gc?: () => void }).gc?.();
  const rss1 = anonRss();
  const copy = runs((q) => cache.query(db, q, K, all));

  // Exact float scan of every chunk, streamed, for the first queries.
  const join = floatJoin(db, id.provider!, id.model!);
  const scan = db.prepare(`SELECT c.id, e.embedding FROM chunks c CROSS JOIN embedding_cache e ON ${join.on}`).raw();
  const qs = queries.slice(0, nExact).map((q) => unitVec(q));
  const tops = qs.map(() => [] as { id: number; d: number }[]);
  for (const [cid, blob] of scan.iterate(...join.args) as Iterable<[number, Buffer]>) {
    const v = unitVec(blobVec(blob));
    qs.forEach((q, i) => {
      let dot = 0;
      for (let j = 0; j < v.length; j++) dot += v[j]! * q[j]!;
      const top = tops[i]!;
      const d = 1 - dot;
      if (top.length < K || d < top[top.length - 1]!.d) {
        top.push({ id: cid, d });
        top.sort((a, b) => a.d - b.d);
        if (top.length > K) top.pop();
      }
    });
  }
  const recall = (got: { value: Candidate[] }[]) => {
    let hit = 0;
    tops.forEach((t, i) => {
      const ids = new Set(t.map((x) => x.id));
      hit += got[i]!.value.filter((c) => ids.has(c.id)).length / t.length;
    });
    return (hit / tops.length).toFixed(4);
  };
  db.close();
  console.log(`${chunks.toLocaleString('en')} chunks × ${id.dims} d, k = ${K}, ${queries.length} queries; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
  console.log('| vector side | wall p50 / p95 ms | CPU p50 / p95 ms | recall@k vs exact float scan |\n|---|---|---|---|');
  console.log(`| one-shot, no filter: vec0's int8 blocks, SIMD scan in-process + exact re-score | ${f(blocks.map((t) => t.wallMs))} | ${f(blocks.map((t) => t.cpuMs))} | ${recall(blocks)} |`);
  console.log(`| one-shot, source = 'memory': vec0's int8 KNN + exact re-score | ${f(filtered.map((t) => t.wallMs))} | ${f(filtered.map((t) => t.cpuMs))} | — |`);
  console.log(`| KNN worker's int8 copy + exact re-score from disk | ${f(copy.map((t) => t.wallMs))} | ${f(copy.map((t) => t.cpuMs))} | ${recall(copy)} |`);
  const st = cache.stats();
  console.log(
    `\ncopy: loaded in ${loadS.toFixed(1)} s wall (${((loadCpu.user + loadCpu.system) / 1e6).toFixed(1)} s CPU); ${st?.rows.toLocaleString('en')} rows, ${((st?.bytes ?? 0) / 1e6).toFixed(0)} MB; anonymous RSS +${((rss1 - rss0) / 1e6).toFixed(0)} MB; recall over the first ${tops.length} queries`,
  );
}

await main();
