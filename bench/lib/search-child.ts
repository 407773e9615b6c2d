/**
 * One corpus size of the search benchmark, run in its own process (bench/search.ts spawns
 * it) so its peak RSS is its own: full index with the static embedder (throughput and the
 * longest event-loop stall), incremental reindex of one changed daily note, and search
 * latency per mode. Prints one JSON line (`RESULT {...}`) for the parent.
 *
 * The index is built exactly where and how `cairn search --state-dir <corpus>` expects it
 * (same config file, embedder factory and sqlite-vec loader), so the parent can time the
 * CLI on it without a rebuild.
 */
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../../electron/engine/config/load';
import { agentPaths } from '../../electron/engine/config/state-dir';
import type { MemorySearchSettings } from '../../electron/engine/config/schema';
import { createEmbedderForSettings } from '../../electron/engine/embed/factory';
import { MemoryIndex } from '../../electron/engine/index/memory-index';
import { knnCopyLoaded, knnWorkerReady, searchIndex, type SearchView } from '../../electron/engine/search/index-search';
import { recallForPrompt } from '../../electron/engine/openclaw/recall';
import { recallContext, recallRequest } from './recall-context';
import type { SearchRequest } from '../../electron/engine/core/search-backend';
import { CORPUS_NOW, ensureCorpus, type CorpusSize } from '../corpus';
import { cpuMs, median, quantile, timed } from './stats';

/** Queries of every kind the search sees: keywords, sentences, exact tokens, CJK. */
export const LATENCY_QUERIES = [
  'backup', 'deploy staging', 'what did we decide about the retry logic', 'ECONNREFUSED', 'SQLITE_BUSY on port',
  'agents.defaults.memorySearch.query.minScore', 'who reviewed the onboarding flow', 'flaky integration test', 'router firmware',
  'vacation itinerary', 'dentist appointment next week', 'why did latency double under load', 'cloud bill', 'postmortem outage staging cluster',
  '发布计划', '東京の会議', 'バックアップの設定', '预算审查', 'Kenji packaging', 'Priya security review', 'rewrote the PDF renderer',
  'HTTP 429 Too Many Requests', '/etc/nginx/sites-enabled/cairn', 'memory flush prompt', 'cache eviction policy', 'tax return documents',
  'apartment move boxes', 'cycling route', 'how do I keep the state dir plain files', 'grocery list',
];

export interface Latency {
  p50: number;
  p95: number;
  /** The same percentiles of the process CPU time per search (user + system). */
  cpuP50: number;
  cpuP95: number;
  n: number;
}

export interface ChildResult {
  size: CorpusSize;
  files: number;
  chunks: number;
  indexMs: number;
  /** Wall time of each full build from scratch (the first is `indexMs`; 1k does three). */
  indexRunsMs: number[];
  /** Chunks per second of the median build. */
  chunksPerSec: number;
  /** Process CPU time of the full index, and chunks per CPU second. */
  indexCpuMs: number;
  chunksPerCpuSec: number;
  /**
   * The main thread's CPU time of the full index (the embedding worker runs beside it on
   * the other core): the critical path, i.e. about the wall time on an idle machine.
   */
  indexMainCpuMs: number;
  stallMs: number;
  stallProbeMs: number;
  /**
   * Most main-thread CPU time spent between two probe ticks: the stall on an idle machine.
   * (Process CPU would also count the embedding worker thread running meanwhile.)
   */
  stallCpuMs: number;
  incremental: { medianMs: number; maxMs: number; cpuMedianMs: number; runs: number } | null;
  latency: Record<'fts' | 'vector' | 'hybrid' | 'hybridDecayMmr', Latency>;
  /**
   * The recall section (issue 37): the search recall runs (12 hits, each line scored) beside
   * the same search without lines, and what the recall adds beyond its search, per query.
   */
  recall?: { search12: Latency; recall: Latency; extraP50: number; extraP95: number };
  peakRssMb: number;
  indexFileMb: number;
}


/**
 * CPU time of the calling (main) thread in ms, from Linux's per-thread schedstat (updated
 * at scheduler ticks: a few ms of granularity). Elsewhere the process's CPU time, which
 * also counts worker threads.
 */
export const threadCpuMs: () => number = (() => {
  const file = '/proc/thread-self/schedstat';
  const read = () => Number(fs.readFileSync(file, 'utf8').split(' ')[0]) / 1e6;
  try {
    if (Number.isFinite(read())) return read;
  } catch {
    // not Linux
  }
  return () => cpuMs(process.cpuUsage());
})();


async function timeSearches(idx: MemoryIndex, extra: Partial<SearchRequest>, rounds: number, view: SearchView = {}): Promise<Latency> {
  for (const q of LATENCY_QUERIES) await searchIndex(idx, { query: q, ...extra }, view); // warm-up (statements, page cache)
  // As in the app: from its second search a big index runs the KNN on a worker thread
  // (search/knn-worker.ts), which answers from its in-memory copy of the vectors once loaded
  // (≈ 2 s at 100k, answering from vec0 meanwhile); wait for both so that every timed search
  // is the steady state.
  await knnWorkerReady(idx);
  await knnCopyLoaded(idx);
  const samples: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of LATENCY_QUERIES) {
      const t = await timed(() => searchIndex(idx, { query: q, ...extra }, view));
      samples.push(t.wallMs);
      cpu.push(t.cpuMs);
    }
  }
  return { p50: quantile(samples, 0.5), p95: quantile(samples, 0.95), cpuP50: quantile(cpu, 0.5), cpuP95: quantile(cpu, 0.95), n: samples.length };
}

/**
 * The recall path (recallForPrompt with the plugin's defaults) against its own search (12
 * results, as recall asks, lines not scored: `packLines` off), per query alternately.
 */
async function timeRecall(idx: MemoryIndex, rounds: number): Promise<NonNullable<ChildResult['recall']>> {
  const ctx = recallContext(idx);
  const search: number[] = [];
  const whole: number[] = [];
  const extra: number[] = [];
  for (const q of LATENCY_QUERIES) await recallForPrompt(ctx, recallRequest(q)); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const q of LATENCY_QUERIES) {
      const s = await timed(() => searchIndex(idx, { query: q, maxResults: 12 }));
      const w = await timed(() => recallForPrompt(ctx, recallRequest(q)));
      search.push(s.wallMs);
      whole.push(w.wallMs);
      extra.push(w.wallMs - s.wallMs);
    }
  }
  const lat = (xs: number[]): Latency => ({ p50: quantile(xs, 0.5), p95: quantile(xs, 0.95), cpuP50: Number.NaN, cpuP95: Number.NaN, n: xs.length });
  return { search12: lat(search), recall: lat(whole), extraP50: quantile(extra, 0.5), extraP95: quantile(extra, 0.95) };
}

/** Append a line to one daily note, sync, and time it; restore and repeat. */
async function incremental(idx: MemoryIndex, workspace: string, runs: number): Promise<ChildResult['incremental']> {
  const days = fs.readdirSync(path.join(workspace, 'memory')).filter((f) => /^\d{4}-\d{2}-\d{2}\.md$/.test(f)).sort();
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const file = path.join(workspace, 'memory', days[Math.floor((days.length * (i + 1)) / (runs + 1))]!);
    const before = fs.readFileSync(file, 'utf8');
    fs.appendFileSync(file, `\n- Benchmark edit ${i}: moved the standup to 9:30.\n`);
    const { value: res, wallMs, cpuMs: cpuSpent } = await timed(() => idx.sync());
    times.push(wallMs);
    cpu.push(cpuSpent);
    if (res.full) throw new Error('incremental sync turned into a full rebuild');
    fs.writeFileSync(file, before);
    await idx.sync();
  }
  return { medianMs: median(times), maxMs: Math.max(...times), cpuMedianMs: median(cpu), runs };
}

export async function runChild(size: CorpusSize): Promise<ChildResult> {
  const corpus = await ensureCorpus(size, { log: (m) => console.error(m) });
  const loaded = loadConfig(corpus.dir);
  const paths = agentPaths(corpus.dir, loaded.config);
  const settings: MemorySearchSettings = loaded.config.memory.search;
  const embedder = await createEmbedderForSettings(settings, { modelsDir: paths.modelsDir });
  if (!embedder || embedder.provider !== 'static') throw new Error(`expected the static embedder, got ${embedder?.id ?? 'none'}`);
  const roots = { workspace: paths.workspace, sessionsDir: paths.sessionsDir, extraPaths: settings.extraPaths, sources: settings.sources };
  const open = (s: MemorySearchSettings) => MemoryIndex.open({ agentId: 'main', indexFile: paths.indexFile, roots, settings: s, embedder, now: () => CORPUS_NOW });

  for (const f of [paths.indexFile, `${paths.indexFile}-wal`, `${paths.indexFile}-shm`]) fs.rmSync(f, { force: true });
  let idx = open(settings);
  // Two stall probes: the perf_hooks histogram and a 2 ms interval's largest late tick.
  const hist = monitorEventLoopDelay({ resolution: 5 });
  // On a loaded machine a late tick is often the OS running someone else: the CPU time the
  // main thread used between two ticks is what its own longest synchronous stretch costs.
  let probeMax = 0;
  let cpuMax = 0;
  let lastTick = performance.now();
  let lastCpu = threadCpuMs();
  const probe = setInterval(() => {
    const now = performance.now();
    const cpu = threadCpuMs();
    probeMax = Math.max(probeMax, now - lastTick - 2);
    cpuMax = Math.max(cpuMax, cpu - lastCpu);
    lastTick = now;
    lastCpu = cpu;
  }, 2);
  hist.enable();
  const cpu0 = process.cpuUsage();
  const main0 = threadCpuMs();
  const t0 = performance.now();
  const built = await idx.sync({ force: true });
  const indexMs = performance.now() - t0;
  const indexCpuMs = cpuMs(process.cpuUsage(cpu0));
  const indexMainCpuMs = threadCpuMs() - main0;
  hist.disable();
  clearInterval(probe);
  // A 1k build lasts ~0.5 s, so one run is at the mercy of a scheduling hiccup: two more
  // builds from scratch (index files deleted: no embedding cache to carry over), in this
  // now warm process; the verdict takes the median of the three.
  const indexRunsMs = [indexMs];
  if (size === '1k') {
    for (let i = 0; i < 2; i++) {
      await idx.dispose();
      for (const f of [paths.indexFile, `${paths.indexFile}-wal`, `${paths.indexFile}-shm`]) fs.rmSync(f, { force: true });
      idx = open(settings);
      const t = performance.now();
      await idx.sync({ force: true });
      indexRunsMs.push(performance.now() - t);
    }
  }
  const indexMedianMs = median(indexRunsMs);

  const inc = size === '1k' ? null : await incremental(idx, corpus.workspace, 5);

  const rounds = size === '100k' || size === '1m' ? 3 : 6;
  // The keyword and vector sides are timed on the one index (one connection, one KNN copy):
  // a second and third index of the same file held their own copies, +~100 MB per 100k chunks.
  const vectorOnly = { ...settings, query: { ...settings.query, hybrid: { ...settings.query.hybrid, enabled: false } } };
  const latency = {
    fts: await timeSearches(idx, {}, rounds, { keywordOnly: true }),
    vector: await timeSearches(idx, {}, rounds, { settings: vectorOnly }),
    hybrid: await timeSearches(idx, {}, rounds),
    hybridDecayMmr: await timeSearches(idx, { decay: true, mmr: true }, rounds),
  };
  const recall = await timeRecall(idx, rounds);
  await idx.dispose();
  await embedder.dispose();
  return {
    size,
    files: built.files,
    chunks: built.chunks,
    indexMs,
    indexRunsMs,
    chunksPerSec: built.chunks / (indexMedianMs / 1000),
    indexCpuMs,
    chunksPerCpuSec: built.chunks / (indexCpuMs / 1000),
    indexMainCpuMs,
    stallMs: hist.max / 1e6,
    stallProbeMs: probeMax,
    stallCpuMs: cpuMax,
    incremental: inc,
    latency,
    recall,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    indexFileMb: fs.statSync(paths.indexFile).size / 1e6,
  };
}
