/**
 * Quick index/search measurements for the memory index (issue 3): full index throughput,
 * one changed file among N chunks, search latency per mode, and the longest event-loop
 * stall while indexing. Synthetic daily notes; the static embedder (converted once into
 * bench/.data/models). The full benchmark suite (1k/10k/100k, whole-process) is bench/run.ts.
 *
 *   node --import tsx bench/index-quick.ts [chunks=10000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { defaultConfig } from '../electron/engine/config/schema';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { searchIndex } from '../electron/engine/search/index-search';
import { createPotionEmbedder } from '../electron/engine/embed/potion';
import { quantile } from './lib/stats';

const target = Number(process.argv[2] ?? 10_000);
const WORDS = 'deploy budget garden kayak postgres migration review standup invoice design api gateway token release sprint retro travel dentist tomato vim neovim keyboard latency cache index vector search memory compaction pruning summary decision todo'.split(' ');

function rnd(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

function makeCorpus(dir: string, chunks: number): void {
  const r = rnd(42);
  const perFile = 10; // ~10 chunks of ~1,600 chars per note
  const files = Math.ceil(chunks / perFile);
  fs.mkdirSync(path.join(dir, 'memory'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'MEMORY.md'), '# Long-term memory\n\nPrefers dark mode.\n');
  const start = Date.UTC(2020, 0, 1);
  for (let f = 0; f < files; f++) {
    const day = new Date(start + f * 86_400_000).toISOString().slice(0, 10);
    const lines: string[] = [`# ${day}`];
    for (let i = 0; i < perFile * 13; i++) {
      const n = 8 + Math.floor(r() * 10);
      lines.push(`- ${Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ')} #${f}-${i} ${Math.floor(r() * 1e9).toString(16)}`);
      if (i % 20 === 0) lines.push(`\n## Section ${i}`);
    }
    fs.writeFileSync(path.join(dir, 'memory', `${day}.md`), lines.join('\n'));
  }
}

const pct = (xs: number[], p: number): number => quantile(xs, p / 100);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-'));
const ws = path.join(root, 'workspace');
makeCorpus(ws, target);
const embedder = await createPotionEmbedder();
const settings = defaultConfig().memory.search;
const open = () =>
  MemoryIndex.open({
    agentId: 'main',
    indexFile: path.join(root, 'index.sqlite'),
    roots: { workspace: ws, sessionsDir: path.join(root, 'sessions'), extraPaths: [], sources: ['memory'] },
    settings,
    embedder,
  });

const idx = open();
const h = monitorEventLoopDelay({ resolution: 5 });
// On a busy shared machine wall-clock stalls include time the OS gave to other processes;
// the CPU time this process spent between two event-loop turns is the work that blocked it.
let cpuStall = 0;
let running = true;
let prev = process.cpuUsage();
const tick = () => {
  const now = process.cpuUsage();
  cpuStall = Math.max(cpuStall, (now.user + now.system - prev.user - prev.system) / 1000);
  prev = now;
  if (running) setImmediate(tick);
};
setImmediate(tick);
h.enable();
const cpu0 = process.cpuUsage();
const full = await idx.sync();
const fullCpu = process.cpuUsage(cpu0);
h.disable();
running = false;
const stallMs = h.max / 1e6;
const firstCpuStall = cpuStall;

// Forced rebuild over the existing index (temp file + online backup into the live file).
const h2 = monitorEventLoopDelay({ resolution: 5 });
cpuStall = 0;
running = true;
prev = process.cpuUsage();
setImmediate(tick);
h2.enable();
const forced = await idx.sync({ force: true });
h2.disable();
running = false;
const forcedStall = { wall: h2.max / 1e6, cpu: cpuStall };

const one = path.join(ws, 'memory', fs.readdirSync(path.join(ws, 'memory')).sort()[5]!);
fs.appendFileSync(one, '\n- appended line about the flamingo incident\n');
const cpu1 = process.cpuUsage();
const inc = await idx.sync();
const incCpu = process.cpuUsage(cpu1);
const ms = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

const queries = ['what did we decide about the postgres migration', 'kayak trip', 'dentist appointment', 'release sprint retro notes', 'gateway token latency'];
const time = async (fn: () => Promise<unknown>) => {
  const xs: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t = performance.now();
    await fn();
    xs.push(performance.now() - t);
  }
  return { p50: pct(xs, 50), p95: pct(xs, 95) };
};
let qi = 0;
const q = () => queries[qi++ % queries.length]!;
const hybrid = await time(() => searchIndex(idx, { query: q() }));
const decayMmr = await time(() => searchIndex(idx, { query: q(), decay: true, mmr: true }));
await idx.dispose();
const fts = MemoryIndex.open({
  agentId: 'main',
  indexFile: path.join(root, 'index.sqlite'),
  roots: { workspace: ws, sessionsDir: '', extraPaths: [], sources: ['memory'] },
  settings,
  embedder: null,
});
const ftsT = await time(() => searchIndex(fts, { query: q() }));
await fts.dispose();

const f = (x: number) => x.toFixed(1);
console.log(`| measure (${full.chunks} chunks, static embedder) | value |\n|---|---|`);
console.log(`| full index (wall / CPU) | ${full.durationMs} ms / ${Math.round(ms(fullCpu))} ms → ${Math.round((full.chunks / full.durationMs) * 1000)} / ${Math.round((full.chunks / ms(fullCpu)) * 1000)} chunks/s |`);
console.log(`| one changed file reindexed (wall / CPU) | ${inc.durationMs} ms / ${Math.round(ms(incCpu))} ms (${inc.embedded} chunk(s) embedded) |`);
console.log(`| longest event-loop stall while indexing (wall / CPU time of the blocking work) | ${f(stallMs)} / ${f(firstCpuStall)} ms |`);
console.log(`| forced rebuild of the same index (wall; stall wall / CPU) | ${forced.durationMs} ms; ${f(forcedStall.wall)} / ${f(forcedStall.cpu)} ms |`);
console.log(`| hybrid search p50 / p95 | ${f(hybrid.p50)} / ${f(hybrid.p95)} ms |`);
console.log(`| hybrid + decay + MMR p50 / p95 | ${f(decayMmr.p50)} / ${f(decayMmr.p95)} ms |`);
console.log(`| FTS-only search p50 / p95 | ${f(ftsT.p50)} / ${f(ftsT.p95)} ms |`);
console.log(`| peak RSS | ${Math.round(process.resourceUsage().maxRSS / 1024)} MB |`);
await embedder.dispose();
if (!process.env.KEEP) fs.rmSync(root, { recursive: true, force: true }); else console.log(root);
