/**
 * Issue 40: how much the compact float copy (half precision, index/half-float.ts) changes the
 * vector side's top 6, against the exact float32 scan of every chunk — beside what the int8
 * candidates alone (no re-score) change. On one built index with float32 copies (an index of
 * schema ≤ 9, e.g. a copy of bench/search.ts's 100k index made before schema 10):
 *
 *   node --import tsx bench/half-rescore.ts <index.sqlite>
 *
 * Queries: bench/lib/search-child.ts's 30 latency queries plus 200 chunk bodies' own vectors
 * (perturbed), through the static embedder of the bench corpus. Prints a Markdown table.
 */
import { openDatabase } from '../electron/engine/index/db';
import { blobVec, unitVec } from '../electron/engine/index/store';
import { halfBlob, halfVec } from '../electron/engine/index/half-float';
import { int8BlockCandidates } from '../electron/engine/search/int8-scan';
import { oversampled } from '../electron/engine/search/exact-vectors';
import { createEmbedderForSettings } from '../electron/engine/embed/factory';
import { loadConfig } from '../electron/engine/config/load';
import { agentPaths } from '../electron/engine/config/state-dir';
import { DATA_DIR } from './corpus';
import { LATENCY_QUERIES } from './lib/search-child';
import path from 'node:path';

const K = 6;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function topK(scored: [number, number][], k: number): number[] {
  return scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k).map(([id]) => id);
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) throw new Error('usage: bench/half-rescore.ts <index.sqlite>');
  const { db } = openDatabase(file, { readonly: true });
  const rows = db.prepare('SELECT c.id, e.embedding FROM chunks c JOIN embedding_cache e ON e.hash = c.embed_hash').raw().all() as [number, Buffer][];
  const exact = new Map<number, Float32Array>();
  const half = new Map<number, Float32Array>();
  for (const [id, b] of rows) {
    const v = blobVec(b);
    exact.set(id, unitVec(v));
    half.set(id, unitVec(halfVec(halfBlob(v))));
  }
  const corpus = path.join(DATA_DIR, 'corpus-100k');
  const loaded = loadConfig(corpus);
  const embedder = await createEmbedderForSettings(loaded.config.memory.search, { modelsDir: agentPaths(corpus, loaded.config).modelsDir });
  if (!embedder) throw new Error('no embedder');
  const queries = await embedder.embed(LATENCY_QUERIES, { kind: 'query' });
  const ids = [...exact.keys()];
  for (let i = 0; i < 200; i++) {
    const v = Float32Array.from(exact.get(ids[Math.floor((i * 7919) % ids.length)]!)!, (x) => x + (Math.random() - 0.5) * 0.05);
    queries.push(v);
  }
  let halfChanged = 0;
  let int8Changed = 0;
  let int8Rescored = 0;
  let maxDelta = 0;
  let halfSet = 0;
  let floatSet = 0;
  let realHalf = 0;
  for (const qv of queries) {
    const q = unitVec(qv);
    const truth = topK([...exact].map(([id, v]) => [id, dot(v, q)]), K);
    const cands = int8BlockCandidates(db, qv, oversampled(K)) ?? [];
    const int8Only = cands.slice(0, K);
    const fromHalf = topK(cands.map((id) => [id, dot(half.get(id)!, q)]), K);
    const fromFloat = topK(cands.map((id) => [id, dot(exact.get(id)!, q)]), K);
    for (const id of cands) maxDelta = Math.max(maxDelta, Math.abs(dot(half.get(id)!, q) - dot(exact.get(id)!, q)));
    const same = (a: number[]) => a.length === truth.length && a.every((x, i) => x === truth[i]);
    const sameSet = (a: number[]) => a.length === truth.length && a.every((x) => truth.includes(x));
    if (!same(fromHalf)) halfChanged++;
    if (!sameSet(fromHalf)) halfSet++;
    if (!sameSet(fromFloat)) floatSet++;
    if (!same(fromHalf) && queries.indexOf(qv) < LATENCY_QUERIES.length) realHalf++;
    if (!same(int8Only)) int8Changed++;
    if (!same(fromFloat)) int8Rescored++;
  }
  console.log(`${exact.size} chunks × ${exact.values().next().value!.length} d, ${queries.length} queries, top ${K} against the exact float32 scan:\n`);
  console.log('| path | queries whose top 6 differs (set or order) | … whose top-6 set differs |');
  console.log('|---|---|---|');
  console.log(`| int8 candidates alone | ${int8Changed} | — |`);
  console.log(`| int8 candidates re-scored from float32 (schema 8–9) | ${int8Rescored} | ${floatSet} |`);
  console.log(`| int8 candidates re-scored from float16 (schema 10) | ${halfChanged} (${realHalf} of the ${LATENCY_QUERIES.length} text queries) | ${halfSet} |`);
  console.log(`\nlargest |cosine(half) − cosine(float32)| over all candidates: ${maxDelta.toExponential(2)}`);
  await embedder.dispose();
  db.close();
}

await main();
