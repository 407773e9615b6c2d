/**
 * Search latency with line vectors at scale (issue 13): the 10k (or 100k) corpus of
 * bench/corpus.ts indexed with a 384-d embedder (the dims of all-MiniLM-L6-v2; a
 * deterministic feature-hashed bag of words, because embedding 10k chunks and their ~70k line
 * units with the real model takes about 40 minutes here — the scan costs depend on the
 * vector count and size, not on the values) and `lineVectors: on`. Prints hybrid p50 / p95
 * (wall and CPU) of the search as it runs now (chunk KNN + the candidates re-scored by their
 * lines), and — for comparison with the line KNN that round 3 ran on every search — the cost
 * of one KNN over all line vectors (`lines_vec`, k = 96) on the same file.
 *
 *   node --import tsx bench/search-lines.ts [10k|100k] [on|off]
 *
 * `off` indexes no line vectors: the chunk KNN alone at 384 d (what a real embedder's search
 * scans at that size).
 *
 * The index goes to a temp dir and is removed at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../electron/engine/config/load';
import { openDatabase } from '../electron/engine/index/db';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { unitVec, vecBlob } from '../electron/engine/index/store';
import { knnCopyLoaded, knnWorkerReady, searchIndex } from '../electron/engine/search/index-search';
import { FakeEmbedder } from '../testkit/fake-embedder';
import { ensureCorpus, type CorpusSize } from './corpus';
import { LATENCY_QUERIES } from './lib/search-child';
import { quantile, timed } from './lib/stats';

const ROUNDS = 5;

async function main(): Promise<void> {
  const size = (process.argv[2] ?? '10k') as CorpusSize;
  const corpus = await ensureCorpus(size, { log: (m) => console.error(m) });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-lines-'));
  // The corpus's own config (memory and sessions, as bench/search.ts indexes it).
  const settings = loadConfig(corpus.dir).config.agents.defaults.memorySearch;
  const lineVectors = (process.argv[3] ?? 'on') === 'off' ? 'off' : 'on';
  settings.query.hybrid.lineVectors = lineVectors;
  const embedder = new FakeEmbedder({ provider: 'local', model: 'hash-384', dims: 384 });
  const indexFile = path.join(tmp, 'main.sqlite');
  const idx = MemoryIndex.open({
    agentId: 'main',
    indexFile,
    roots: { workspace: corpus.workspace, sessionsDir: corpus.sessionsDir, extraPaths: [], sources: settings.sources },
    settings,
    embedder,
  });
  try {
    const t0 = performance.now();
    await idx.sync();
    const { db } = openDatabase(indexFile, { readonly: true });
    const count = (t: string) => db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get() as number;
    const chunks = count('chunks');
    const lines = lineVectors === 'on' ? count('chunk_lines') : 0;
    console.error(`indexed ${chunks} chunks, ${lines} line vectors in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const time = async (fn: (q: string) => Promise<unknown> | unknown) => {
      for (const q of LATENCY_QUERIES) await fn(q); // warm-up
      const wall: number[] = [];
      const cpu: number[] = [];
      for (let r = 0; r < ROUNDS; r++)
        for (const q of LATENCY_QUERIES) {
          const t = await timed(() => fn(q));
          wall.push(t.wallMs);
          cpu.push(t.cpuMs);
        }
      const f = (x: number) => x.toFixed(1);
      return `${f(quantile(wall, 0.5))} / ${f(quantile(wall, 0.95))} (${f(quantile(cpu, 0.5))} / ${f(quantile(cpu, 0.95))})`;
    };
    const hybrid = await time((q) => searchIndex(idx, { query: q }));
    await knnWorkerReady(idx);
    const l0 = performance.now();
    const loaded = await knnCopyLoaded(idx);
    const loadS = ((performance.now() - l0) / 1000).toFixed(1);
    const hybridWorker = await time((q) => searchIndex(idx, { query: q }));
    const knn = lineVectors === 'on' ? db.prepare('SELECT rowid, distance FROM lines_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance') : null;
    const lineKnn = knn ? await time(async (q) => knn.all(vecBlob(unitVec((await embedder.embed([q]))[0]!)), 96)) : 'no line vectors';
    db.close();
    console.log(`Line vectors at ${size}: ${chunks} chunks, ${lines} line vectors × 384 d; load average ${os.loadavg()[0]!.toFixed(1)}. ms p50 / p95 wall (CPU):\n`);
    console.log('| measure | ms |\n|---|---|');
    console.log(`| hybrid search (chunk KNN in-process${lineVectors === 'on' ? ' + candidates re-scored by lines' : ''}) | ${hybrid} |`);
    console.log(`| the same with the KNN worker thread up, answering from its in-memory copy (${loaded ? `loaded, ${loadS} s after the worker was up` : 'not loaded: vec0'}) | ${hybridWorker} |`);
    console.log(`| one KNN over all line vectors (what every search ran before round 4) | ${lineKnn} |`);
  } finally {
    await idx.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
