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
 *   node --import tsx bench/search-lines.ts [10k|100k|1m] [on|off] [keep]
 *
 * Then, per query, where the time of the in-process search goes: the keyword side (both
 * FTS5 tables, as search/lexical.ts runs them) and the vector side (vec0 in-process, and the
 * worker's in-memory copy).
 *
 * `off` indexes no line vectors: the chunk KNN alone at 384 d (what a real embedder's search
 * scans at that size).
 *
 * The index goes to a temp dir and is removed at the end (`keep`: left there, path printed).
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
import { quantile, timed, timedSync } from './lib/stats';
import { lexicalCandidates } from '../electron/engine/search/lexical';
import { vec0Candidates } from '../electron/engine/search/candidates';

const ROUNDS = 5;

/** Bytes per table and its shadow tables and indexes (SQLite's dbstat), biggest first. */
function tableSizes(db: ReturnType<typeof openDatabase>['db']): string {
  const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[];
  const by = new Map<string, number>();
  for (const r of rows) {
    const group = r.name.replace(/^sqlite_autoindex_/, '').replace(/_(\d+)$/, '').replace(/^(chunks_vec|lines_vec|chunks_fts_stem|chunks_fts)_.*/, '$1');
    by.set(group, (by.get(group) ?? 0) + r.bytes);
  }
  return [...by].sort((a, b) => b[1] - a[1]).filter(([, b]) => b > 1e6).map(([n, b]) => `${n} ${(b / 1e6).toFixed(0)}`).join(', ');
}

/** Per query: the in-process keyword side (both FTS5 tables) and vec0's KNN, medians of 3 (ms CPU). */
async function sides(db: ReturnType<typeof openDatabase>['db'], embedder: FakeEmbedder, settings: ReturnType<typeof loadConfig>['config']['memory']['search']): Promise<string> {
  const limit = settings.query.maxResults * settings.query.hybrid.candidateMultiplier;
  const filter = { sources: settings.sources };
  const h = settings.query.hybrid;
  const lex = { calibration: h.calibration, stemWeight: h.stemWeight };
  const med = (fn: () => unknown) => quantile([0, 1, 2].map(() => timedSync(fn).cpuMs), 0.5).toFixed(1);
  const rows = ['| query | keyword side (both FTS5 tables) | vec0 KNN |', '|---|---|---|'];
  for (const q of LATENCY_QUERIES) {
    const [v] = await embedder.embed([q]);
    rows.push(`| ${q} | ${med(() => lexicalCandidates(db, q, limit, filter, lex))} | ${med(() => vec0Candidates(db, v!, limit, filter))} |`);
  }
  return rows.join('\n');
}

async function main(): Promise<void> {
  const size = (process.argv[2] ?? '10k') as CorpusSize;
  const corpus = await ensureCorpus(size, { log: (m) => console.error(m) });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-lines-'));
  // The corpus's own config (memory and sessions, as bench/search.ts indexes it).
  const settings = loadConfig(corpus.dir).config.memory.search;
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
    const sizes = tableSizes(db);
    const hybrid = await time((q) => searchIndex(idx, { query: q }));
    await knnWorkerReady(idx);
    const l0 = performance.now();
    const loaded = await knnCopyLoaded(idx);
    const loadS = ((performance.now() - l0) / 1000).toFixed(1);
    const hybridWorker = await time((q) => searchIndex(idx, { query: q }));
    const knn = lineVectors === 'on' ? db.prepare('SELECT rowid, distance FROM lines_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance') : null;
    const lineKnn = knn ? await time(async (q) => knn.all(vecBlob(unitVec((await embedder.embed([q]))[0]!)), 96)) : 'no line vectors';
    const perQuery = await sides(db, embedder, settings);
    db.close();
    console.log(`Line vectors at ${size}: ${chunks} chunks, ${lines} line vectors × 384 d; load average ${os.loadavg()[0]!.toFixed(1)}. ms p50 / p95 wall (CPU):\n`);
    console.log('| measure | ms |\n|---|---|');
    console.log(`| hybrid search (chunk KNN in-process${lineVectors === 'on' ? ' + candidates re-scored by lines' : ''}) | ${hybrid} |`);
    console.log(`| the same with the KNN worker thread up, answering from its in-memory copy (${loaded ? `loaded, ${loadS} s after the worker was up` : 'not loaded: vec0'}) | ${hybridWorker} |`);
    console.log(`| one KNN over all line vectors (what every search ran before round 4) | ${lineKnn} |`);
    console.log(`\n${perQuery}`);
    console.log(`\nIndex file ${(fs.statSync(indexFile).size / 1e6).toFixed(0)} MB; by table (dbstat, MB): ${sizes}`);
  } finally {
    await idx.dispose();
    if (process.argv[4] === 'keep') console.error(`index kept: ${indexFile}`);
    else fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
