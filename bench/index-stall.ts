/**
 * Main-thread stalls while a full index is built with an embedder that computes off the
 * event loop, as the local GGUF one does (node-llama-cpp's native threads): the longest
 * event-loop delay (`monitorEventLoopDelay`, 5 ms resolution), wall time, and where the
 * main thread's time went in the stretches that stalled it.
 *
 *   node --import tsx bench/index-stall.ts [1k|10k] [perTextMs=3] [contexts=2] [busy=0] [gapMs=20]
 *   node --trace-gc --import tsx bench/index-stall.ts 1k      (GC pauses on stderr)
 *   CAIRN_WRITE_WORKER=off node --import tsx bench/index-stall.ts 10k   (SQLite writes on the engine
 *   thread; `on` = in the write worker, which a rebuild of ≥ 100 files uses by default)
 *
 * The embedder stands in for GgufEmbedder as the pipeline sees it: provider `local` (so line
 * vectors are on by default, the in-process path with one embed call per batch, and a resume
 * cache), 384 dims, and each text resolved on its own after `perTextMs` by one of `contexts`
 * parallel lanes: worker threads that burn that much CPU per text (the cores are shared with
 * the main thread as llama.cpp's threads share them), its vector (testkit's feature-hashed bag
 * of words) computed when the lane answers, like node-llama-cpp's per-text promise. SQLite calls are timed by wrapping better-sqlite3's Statement and exec; a
 * gap of the event loop over `gapMs` is reported with the SQL that ran inside it. `busy`
 * more worker threads spin the whole time: the load of other processes on the machine
 * (the real-model runs were measured at load 3–20 on 2 cores, where the OS gives the main
 * thread a fraction of a core and every synchronous step takes several times longer). The index file is written
 * under the OS temp dir.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { loadConfig } from '../electron/engine/config/load';
import type { EmbedOptions, Embedder } from '../electron/engine/embed/types';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { FakeEmbedder } from '../testkit/fake-embedder';
import { CORPUS_NOW, ensureCorpus, type CorpusSize } from './corpus';
import { threadCpuMs } from './lib/search-child';

/**
 * A lane: a worker thread that burns `ms` of CPU per text, as one llama.cpp context's native
 * thread does — the main thread then shares the cores with the lanes, as it does in the app.
 */
const LANE = `const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ i, ms }) => { const end = performance.now() + ms; while (performance.now() < end); parentPort.postMessage(i); });`;

/** GgufEmbedder seen from the event loop: texts resolve one by one, computed off this thread. */
class OffThreadEmbedder implements Embedder {
  readonly provider = 'local';
  readonly model = 'stall-bench-384.gguf';
  readonly id = `${this.provider}:${this.model}`;
  readonly dims = 384;
  private readonly inner = new FakeEmbedder({ dims: 384, model: this.model });
  private readonly workers: Worker[];
  texts = 0;
  constructor(private readonly perTextMs: number, lanes: number) {
    this.workers = Array.from({ length: lanes }, () => new Worker(LANE, { eval: true }));
  }
  private one(w: Worker, i: number): Promise<void> {
    return new Promise((resolve) => {
      w.once('message', () => resolve());
      w.postMessage({ i, ms: this.perTextMs });
    });
  }
  async embed(texts: string[], opts: EmbedOptions = {}): Promise<Float32Array[]> {
    const out = new Array<Float32Array>(texts.length);
    let next = 0;
    const lane = async (w: Worker): Promise<void> => {
      while (next < texts.length) {
        const i = next++;
        await this.one(w, i);
        // Like GgufEmbedder's per-text tokenize + normalise: a little main-thread work per text.
        out[i] = this.inner.vector(texts[i]!);
      }
    };
    await Promise.all(this.workers.slice(0, Math.max(1, texts.length)).map(lane));
    this.texts += texts.length;
    opts.onProgress?.(texts.length, texts.length);
    return out;
  }
  async dispose(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

interface Op {
  what: string;
  start: number;
  ms: number;
}

/** Time every SQLite call (statement run/get/all/iterate, exec) from here on. */
function instrumentSqlite(): { ops: Op[]; totals: Map<string, { ms: number; n: number; max: number }> } {
  const ops: Op[] = [];
  const totals = new Map<string, { ms: number; n: number; max: number }>();
  const labels = new Map<string, string>();
  const label = (sql: string): string => {
    let l = labels.get(sql);
    if (l === undefined) labels.set(sql, (l = sql.replace(/\s+/g, ' ').trim().slice(0, 70)));
    return l;
  };
  const record = (what: string, start: number): void => {
    const ms = performance.now() - start;
    ops.push({ what, start, ms });
    const t = totals.get(what) ?? { ms: 0, n: 0, max: 0 };
    t.ms += ms;
    t.n++;
    t.max = Math.max(t.max, ms);
    totals.set(what, t);
  };
  const db = Database.prototype as unknown as Record<string, (...a: unknown[]) => unknown>;
  const exec = db.exec!;
  db.exec = function (this: unknown, sql: unknown) {
    const s = performance.now();
    try {
      return exec.call(this, sql);
    } finally {
      record(`exec ${label(String(sql))}`, s);
    }
  };
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown>;
  probe.close();
  for (const m of ['run', 'get', 'all'] as const) {
    const orig = proto[m]!;
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      const s = performance.now();
      try {
        return orig.apply(this, args);
      } finally {
        record(`${m} ${label(this.source)}`, s);
      }
    };
  }
  return { ops, totals };
}

/**
 * Gaps of the event loop over `minMs`, each with its end time; and the most CPU this thread
 * used between two ticks (its longest synchronous stretch, whatever the machine's load).
 */
function watchGaps(minMs: number): { gaps: { end: number; ms: number }[]; cpuMax: () => number; stop: () => void } {
  const gaps: { end: number; ms: number }[] = [];
  let last = performance.now();
  let lastCpu = threadCpuMs();
  let cpuMax = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = threadCpuMs();
    if (now - last > minMs) gaps.push({ end: now, ms: now - last });
    cpuMax = Math.max(cpuMax, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  }, 1);
  return { gaps, cpuMax: () => cpuMax, stop: () => clearInterval(timer) };
}

const f = (x: number): string => x.toFixed(x < 10 ? 1 : 0);

async function main(): Promise<void> {
  const size = (process.argv[2] ?? '1k') as CorpusSize;
  const perTextMs = Number(process.argv[3] ?? 3);
  const lanes = Number(process.argv[4] ?? 2);
  const busy = Array.from({ length: Number(process.argv[5] ?? 0) }, () => new Worker('for (;;);', { eval: true }));
  const gapMs = Number(process.argv[6] ?? 20);
  const corpus = await ensureCorpus(size, { log: (m) => console.error(m) });
  const settings = loadConfig(corpus.dir).config.memory.search;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-stall-'));
  const { ops, totals } = instrumentSqlite();
  const emb = new OffThreadEmbedder(perTextMs, lanes);
  const roots = { workspace: corpus.workspace, sessionsDir: corpus.sessionsDir, extraPaths: [], sources: settings.sources };
  // CAIRN_WRITE_WORKER=on|off picks the side the writes are made on (the bench's option; the engine reads no such variable).
  const side = process.env.CAIRN_WRITE_WORKER;
  const writeWorker = side === 'on' || side === 'off' ? side : undefined;
  const idx = MemoryIndex.open({ agentId: 'main', indexFile: path.join(tmp, 'main.sqlite'), roots, settings, embedder: emb, now: () => CORPUS_NOW, ...(writeWorker ? { writeWorker } : {}) });
  const load0 = fs.readFileSync('/proc/loadavg', 'utf8').trim();
  const hist = monitorEventLoopDelay({ resolution: 5 });
  const watch = watchGaps(gapMs);
  hist.enable();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  try {
    const res = await idx.sync({ force: true });
    const wall = performance.now() - t0;
    const elu = performance.eventLoopUtilization(elu0);
    hist.disable();
    watch.stop();
    console.log(`### index-stall ${size}: ${res.chunks} chunks, ${emb.texts} texts embedded (perTextMs ${perTextMs}, ${lanes} lanes, ${busy.length} busy threads), load ${load0}\n`);
    console.log(`wall ${f(wall / 1000)} s, event loop busy ${f(elu.active)} ms, longest stall ${f(hist.max / 1e6)} ms (engine-thread CPU between ticks ${f(watch.cpuMax())} ms), p99 ${f(hist.percentile(99) / 1e6)} ms, gaps > ${gapMs} ms: ${watch.gaps.length}\n`);
    console.log('| gap | ends at | SQL in it | top SQL in it |\n|---|---|---|---|');
    for (const g of [...watch.gaps].sort((a, b) => b.ms - a.ms).slice(0, 12)) {
      const inside = new Map<string, number>();
      for (const o of ops) if (o.start >= g.end - g.ms && o.start < g.end) inside.set(o.what, (inside.get(o.what) ?? 0) + o.ms);
      const sql = [...inside.values()].reduce((a, b) => a + b, 0);
      const top = [...inside].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([w, ms]) => `${f(ms)} ms \`${w}\``).join('; ');
      console.log(`| ${f(g.ms)} ms | ${f((g.end - t0) / 1000)} s | ${f(sql)} ms | ${top} |`);
    }
    console.log('\n| SQL (top 12 by total) | calls | total | max one call |\n|---|---|---|---|');
    for (const [w, t] of [...totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) console.log(`| \`${w}\` | ${t.n} | ${f(t.ms)} ms | ${f(t.max)} ms |`);
    console.log(`\nload average at end: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  } finally {
    await idx.dispose();
    await emb.dispose();
    await Promise.all(busy.map((w) => w.terminate()));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
