/**
 * The index's write worker (electron/engine/index/write-worker.ts) against writes on the
 * engine's thread, interleaved in one process: forced full rebuilds of one corpus with the
 * static embedder (its vectors carried over from the old index's cache, so a rebuild is
 * nearly all SQLite writes: the case the worker is for), while a search is issued every
 * `gapMs` against the old index. Per rebuild: wall time, process CPU, the engine thread's
 * busy time (event-loop utilisation), its longest event-loop stall, and the latency of the
 * searches made during it (they answer from the old index until the swap).
 *
 *   node --import tsx bench/index-writer.ts [10k] [pairs=3] [gapMs=50]
 *
 * The index file is written under the OS temp dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { loadConfig } from '../electron/engine/config/load';
import { agentPaths } from '../electron/engine/config/state-dir';
import { createEmbedderForSettings } from '../electron/engine/embed/factory';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { searchIndex } from '../electron/engine/search/index-search';
import { CORPUS_NOW, ensureCorpus, type CorpusSize } from './corpus';
import { cpuMs, quantile } from './lib/stats';
import { threadCpuMs } from './lib/search-child';

const QUERIES = ['deploy staging budget', 'kayak trip weekend', 'meeting notes retry logic', 'dark mode preferences', 'garden tomatoes'];

interface Run {
  mode: 'off' | 'on';
  wallMs: number;
  cpuMs: number;
  mainBusyMs: number;
  stallMs: number;
  /** The engine thread's most CPU between two 2 ms ticks: its longest synchronous stretch, whatever the load. */
  stallCpuMs: number;
  searches: number[];
  failed: number;
  load: string;
}

const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const f = (x: number): string => (Number.isFinite(x) ? x.toFixed(x < 10 ? 1 : 0) : '—');

async function main(): Promise<void> {
  const size = (process.argv[2] ?? '10k') as CorpusSize;
  const pairs = Number(process.argv[3] ?? 3);
  const gapMs = Number(process.argv[4] ?? 50);
  const corpus = await ensureCorpus(size, { log: (m) => console.error(m) });
  const loaded = loadConfig(corpus.dir);
  const settings = loaded.config.memory.search;
  const embedder = await createEmbedderForSettings(settings, { modelsDir: agentPaths(corpus.dir, loaded.config).modelsDir });
  if (!embedder) throw new Error('no embedder');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-writer-'));
  const roots = { workspace: corpus.workspace, sessionsDir: corpus.sessionsDir, extraPaths: [], sources: settings.sources };
  const open = (mode: 'off' | 'on') => MemoryIndex.open({ agentId: 'main', indexFile: path.join(tmp, 'main.sqlite'), roots, settings, embedder, now: () => CORPUS_NOW, writeWorker: mode });
  const runs: Run[] = [];
  try {
    const first = open('on');
    const built = await first.sync();
    console.error(`built ${built.files} files, ${built.chunks} chunks in ${f(built.durationMs / 1000)} s`);
    // Idle search latency, for reference.
    const idle: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      await searchIndex(first, { query: QUERIES[i % QUERIES.length]! });
      idle.push(performance.now() - t);
    }
    await first.dispose();
    for (let i = 0; i < pairs * 2; i++) {
      const mode = i % 2 === 0 ? 'off' : 'on';
      const idx = open(mode);
      await searchIndex(idx, { query: 'warm up' });
      const searches: number[] = [];
      let failed = 0;
      let done = false;
      const searching = (async () => {
        for (let q = 0; !done; q++) {
          await new Promise((r) => setTimeout(r, gapMs));
          if (done) break;
          const t = performance.now();
          try {
            await searchIndex(idx, { query: QUERIES[q % QUERIES.length]! });
            searches.push(performance.now() - t);
          } catch {
            failed++; // the few ms of the swap, when the old handle is closed
          }
        }
      })();
      const hist = monitorEventLoopDelay({ resolution: 5 });
      const l = load();
      let stallCpuMs = 0;
      let lastCpu = threadCpuMs();
      const probe = setInterval(() => {
        const c = threadCpuMs();
        stallCpuMs = Math.max(stallCpuMs, c - lastCpu);
        lastCpu = c;
      }, 2);
      hist.enable();
      const elu0 = performance.eventLoopUtilization();
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const res = await idx.sync({ force: true });
      const wallMs = performance.now() - t0;
      const elu = performance.eventLoopUtilization(elu0);
      const cpu = cpuMs(process.cpuUsage(cpu0));
      hist.disable();
      clearInterval(probe);
      done = true;
      await searching;
      if (!res.full) throw new Error('not a full rebuild');
      runs.push({ mode, wallMs, cpuMs: cpu, mainBusyMs: elu.active, stallMs: hist.max / 1e6, stallCpuMs, searches, failed, load: l });
      console.error(`${mode}: ${f(wallMs / 1000)} s, stall ${f(hist.max / 1e6)} ms, ${searches.length} searches`);
      await idx.dispose();
    }
    console.log(`### index-writer ${size}: forced rebuilds (cache carried over), ${built.chunks} chunks, ${embedder.id}, a search every ${gapMs} ms\n`);
    console.log(`idle search latency p50 / p95 / max: ${f(quantile(idle, 0.5))} / ${f(quantile(idle, 0.95))} / ${f(Math.max(...idle))} ms\n`);
    console.log('| writes | load at start | rebuild wall | process CPU | engine thread busy | longest stall (wall / engine-thread CPU) | searches during it | search p50 / p95 / max |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const r of runs) {
      const s = r.searches;
      console.log(
        `| ${r.mode === 'on' ? 'write worker' : 'engine thread'} | ${r.load} | ${f(r.wallMs / 1000)} s | ${f(r.cpuMs / 1000)} s | ${f(r.mainBusyMs / 1000)} s | ${f(r.stallMs)} / ${f(r.stallCpuMs)} ms | ${s.length}${r.failed ? ` (+${r.failed} during the swap)` : ''} | ${f(quantile(s, 0.5))} / ${f(quantile(s, 0.95))} / ${f(Math.max(...s))} ms |`,
      );
    }
    console.log(`\nload average at end: ${load()}`);
  } finally {
    await embedder.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
