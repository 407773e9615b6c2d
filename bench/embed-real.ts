/**
 * The real sentence embedder (all-MiniLM-L6-v2 converted by `cairn models import`, fetched by
 * scripts/fetch-test-models.mjs) through node-llama-cpp on the CPU. Prints Markdown tables.
 *
 *   node --import tsx bench/embed-real.ts          conversion; chunks/s at threads 1 and 2; query p50
 *   node --import tsx bench/embed-real.ts index [1k|10k]   full index of a bench corpus (default 10k; wall,
 *                                                  main-thread stall, RSS), then a run killed halfway and resumed
 *   node --import tsx bench/embed-real.ts resume [1k|10k] [killAt]   only the killed-and-resumed run
 *   node --import tsx bench/embed-real.ts contexts [chunks=24]   chunks/s and CPU per chunk: one context at
 *                                                  threads 1 and 2, and two single-threaded contexts
 *
 * The index runs write their own index file under the OS temp dir, never the corpus's (other
 * benchmarks use that one). Wall times on the shared 2-core machine swing with other
 * processes' load: each table says the load average.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../electron/engine/config/load';
import { agentPaths } from '../electron/engine/config/state-dir';
import { createGgufEmbedder } from '../electron/engine/embed/gguf';
import { importSentenceTransformers } from '../electron/engine/embed/import/index';
import type { EmbedOptions, Embedder } from '../electron/engine/embed/types';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { CORPUS_NOW, ensureCorpus, type CorpusSize } from './corpus';
import { quantile } from './lib/stats';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const load = (): string => os.loadavg().map((x) => x.toFixed(1)).join(' / ');
const pct = quantile;
const ms = (x: number): string => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

function testModels(): { embedder: string; source: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/fetch-test-models.mjs'), '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('the test models are missing: run node scripts/fetch-test-models.mjs');
  const embedder = (JSON.parse(r.stdout) as { embedder: string | null }).embedder;
  if (!embedder) throw new Error('fetch-test-models gave no embedder');
  const m = JSON.parse(fs.readFileSync(path.join(root, 'scripts/test-models.json'), 'utf8')) as { embedder: { package: string; version: string; folder: string } };
  const source = path.join(path.dirname(path.dirname(embedder)), `${m.embedder.package}-${m.embedder.version}`, m.embedder.folder);
  return { embedder, source };
}

/** ~1,600-char chunks (the chunker's size) of varied note-like prose. */
function chunks(n: number, chars: number): string[] {
  const words = 'project meeting decided database migration postgres schema deploy friday release customer feedback coffee morning running training plan doctor appointment invoice budget travel flight berlin hotel conference slides review bug crash memory leak fix garden dinner recipe birthday gift book'.split(' ');
  let seed = 7;
  const rnd = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, () => {
    let s = '';
    while (s.length < chars) s += `The ${Array.from({ length: 6 + Math.floor(rnd() * 10) }, () => words[Math.floor(rnd() * words.length)]).join(' ')}. `;
    return s.slice(0, chars);
  });
}

async function micro(): Promise<void> {
  const { source } = testModels();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-import-'));
  try {
    console.log(`### Real embedder: all-MiniLM-L6-v2 (load average at start ${load()})\n`);
    console.log('| step | result |\n|---|---|');
    for (const f32 of [false, true]) {
      const t = performance.now();
      const r = await importSentenceTransformers(source, { outDir: dir, f32 });
      console.log(`| \`cairn models import\` (${f32 ? 'F32' : 'Q8_0, default'}) | ${ms(performance.now() - t)}, ${(r.bytes / 1e6).toFixed(1)} MB |`);
    }
    const file = path.join(dir, 'all-MiniLM-L6-v2.gguf');
    const texts = chunks(96, 1600);
    console.log('\n| threads | load (runtime + model) | 1,600-char chunks/s (batch of 96) | CPU per chunk | query p50 / p95 (short, one by one) |\n|---|---|---|---|---|');
    for (const threads of [1, 2]) {
      const t0 = performance.now();
      const e = await createGgufEmbedder({ modelPath: file, threads, contexts: 1 });
      const loadMs = performance.now() - t0;
      await e.embed(texts.slice(0, 4)); // warm-up
      const c0 = process.cpuUsage();
      const t1 = performance.now();
      await e.embed(texts);
      const wall = performance.now() - t1;
      const c = process.cpuUsage(c0);
      const q: number[] = [];
      for (const text of chunks(100, 40)) {
        const s = performance.now();
        await e.embed([text], { kind: 'query' });
        q.push(performance.now() - s);
      }
      console.log(`| ${threads} | ${ms(loadMs)} | ${((texts.length / wall) * 1000).toFixed(1)} | ${ms((c.user + c.system) / 1000 / texts.length)} | ${ms(pct(q, 0.5))} / ${ms(pct(q, 0.95))} |`);
      await e.dispose();
    }
    console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average at end ${load()}.`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Throughput of the ways to use two cores: a second thread per text, or a second context. */
async function contexts(n: number): Promise<void> {
  const { embedder } = testModels();
  const texts = chunks(n, 1600);
  console.log(`### Embedding contexts vs threads, all-MiniLM-L6-v2, ${n} chunks of 1,600 chars\n`);
  console.log('| contexts × threads | chunks/s | CPU per chunk | load average after the row |\n|---|---|---|---|');
  for (const [c, threads] of [[1, 1], [2, 1], [1, 2]] as const) {
    const e = await createGgufEmbedder({ modelPath: embedder, threads, contexts: c });
    await e.embed(texts.slice(0, c)); // warm-up, every context
    const c0 = process.cpuUsage();
    const t = performance.now();
    await e.embed(texts);
    const wall = performance.now() - t;
    const cpu = process.cpuUsage(c0);
    console.log(`| ${c} × ${threads} | ${((n / wall) * 1000).toFixed(1)} | ${ms((cpu.user + cpu.system) / 1000 / n)} | ${load()} |`);
    await e.dispose();
  }
}

/** Counts texts embedded; with `killAt`, prints "half" once that many are done (the parent kills). */
class Counting implements Embedder {
  texts = 0;
  constructor(private readonly inner: Embedder, private readonly killAt?: number) {}
  get provider(): string {
    return this.inner.provider;
  }
  get model(): string {
    return this.inner.model;
  }
  get id(): string {
    return this.inner.id;
  }
  get dims(): number {
    return this.inner.dims;
  }
  async embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]> {
    const out = await this.inner.embed(texts, opts);
    this.texts += texts.length;
    if (this.killAt !== undefined && this.texts >= this.killAt) process.stdout.write(`half ${this.texts}\n`);
    return out;
  }
  dispose(): Promise<void> {
    return this.inner.dispose();
  }
}

async function indexOnce(size: CorpusSize, indexFile: string, killAt?: number): Promise<{ wallMs: number; embedded: number; chunks: number; stallMs: number; peakRssMb: number }> {
  const { embedder } = testModels();
  const corpus = await ensureCorpus(size, { log: (m) => console.error(m) });
  const loaded = loadConfig(corpus.dir);
  const paths = agentPaths(corpus.dir, loaded.config);
  const settings = loaded.config.memory.search;
  const emb = new Counting(await createGgufEmbedder({ modelPath: embedder }), killAt);
  const roots = { workspace: paths.workspace, sessionsDir: paths.sessionsDir, extraPaths: settings.extraPaths, sources: settings.sources };
  const idx = MemoryIndex.open({ agentId: 'main', indexFile, roots, settings, embedder: emb, now: () => CORPUS_NOW });
  const hist = monitorEventLoopDelay({ resolution: 5 });
  let peak = 0;
  const rss = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  hist.enable();
  const t0 = performance.now();
  const res = await idx.sync({ force: true });
  const wallMs = performance.now() - t0;
  hist.disable();
  clearInterval(rss);
  await idx.dispose();
  await emb.dispose();
  return { wallMs, embedded: emb.texts, chunks: res.chunks, stallMs: hist.max / 1e6, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 1e6) };
}

const HEADER = '| run | wall | chunks embedded | chunks/s | longest main-thread stall | peak RSS |\n|---|---|---|---|---|---|';

/** One index from scratch; returns the chunks it embedded. */
async function fromScratch(size: CorpusSize, dir: string): Promise<number> {
  const full = await indexOnce(size, path.join(dir, 'full.sqlite'));
  console.log(HEADER);
  console.log(`| from scratch | ${(full.wallMs / 1000).toFixed(0)} s | ${full.embedded.toLocaleString('en')} of ${full.chunks.toLocaleString('en')} | ${((full.embedded / full.wallMs) * 1000).toFixed(1)} | ${ms(full.stallMs)} | ${full.peakRssMb} MB |`);
  return full.embedded;
}

/** A first index SIGKILLed once `killAt` chunks are embedded, then run again: it must embed only the rest. */
async function killAndResume(size: CorpusSize, dir: string, killAt: number, header: boolean): Promise<void> {
  const file = path.join(dir, 'killed.sqlite');
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child-index', size, file, String(killAt)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (c: Buffer) => c.toString().includes('half') && child.kill('SIGKILL'));
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error('the child finished before it was killed'))));
  });
  const killedMs = performance.now() - t0;
  const resumed = await indexOnce(size, file);
  if (header) console.log(HEADER);
  console.log(`| killed (SIGKILL) once ≥ ${killAt.toLocaleString('en')} were embedded | ${(killedMs / 1000).toFixed(0)} s until killed | – | – | – | – |`);
  console.log(`| resumed after the kill | ${(resumed.wallMs / 1000).toFixed(0)} s | ${resumed.embedded.toLocaleString('en')} of ${resumed.chunks.toLocaleString('en')} | ${((resumed.embedded / resumed.wallMs) * 1000).toFixed(1)} | ${ms(resumed.stallMs)} | ${resumed.peakRssMb} MB |`);
}

/**
 * `index`: from scratch, then killed halfway and resumed (two full indexes' worth of
 * embedding); `resume` runs only the kill-and-resume half, killing at `killAt` (default half
 * the corpus's estimated chunks), so on a busy machine the two can run as separate jobs;
 * `scratch` runs only the from-scratch half.
 */
async function indexBench(size: CorpusSize, mode: 'index' | 'resume' | 'scratch', killAt?: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-real-index-'));
  try {
    console.log(`### ${mode === 'resume' ? 'Killed and resumed index' : 'Full index'} of the ${size} corpus with all-MiniLM-L6-v2 (threads 1; load average at start ${load()})\n`);
    if (mode === 'index') {
      const embedded = await fromScratch(size, dir);
      await killAndResume(size, dir, Math.floor(embedded / 2), false);
    } else if (mode === 'scratch') {
      await fromScratch(size, dir);
    } else {
      const half = Math.floor((await ensureCorpus(size)).manifest.estimatedChunks / 2);
      await killAndResume(size, dir, killAt ?? half, true);
    }
    console.log(`\nLoad average at end ${load()}.`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child-index') await indexOnce(args[1] as CorpusSize, args[2] as string, Number(args[3]));
else if (args[0] === 'index' || args[0] === 'resume' || args[0] === 'scratch') await indexBench((args[1] ?? '10k') as CorpusSize, args[0], args[2] ? Number(args[2]) : undefined);
else if (args[0] === 'contexts') await contexts(Number(args[1] ?? 24));
else await micro();
