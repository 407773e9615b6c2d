/**
 * Indexing throughput of the real sentence embedder (all-MiniLM-L6-v2 GGUF) on the texts a
 * 10k-corpus index embeds (docs/benchmarks.md § Real sentence embedder, "Indexing
 * throughput"). Prints Markdown.
 *
 *   node --import tsx bench/embed-throughput.ts dump [10k] [out.json]   every text an index with
 *                       line vectors embeds (chunk bodies and line units), via a recording embedder
 *   node --import tsx bench/embed-throughput.ts tokens [in.json]   token counts: chunks vs lines
 *   node --import tsx bench/embed-throughput.ts run [in.json] [n=2400] [contexts=1,2] [order=as-is,sorted]
 *                       texts/s (wall and CPU) on an n-text sample in the corpus's real mix
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { loadConfig } from '../electron/engine/config/load';
import { agentPaths } from '../electron/engine/config/state-dir';
import { createGgufEmbedder } from '../electron/engine/embed/gguf';
import type { EmbedOptions, Embedder } from '../electron/engine/embed/types';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { lineUnits } from '../electron/engine/index/line-vectors';
import { chunkBody } from '../electron/engine/index/prepare';
import { CORPUS_NOW, ensureCorpus, type CorpusSize } from './corpus';
import { benchModelPath } from './lib/bench-model';
import { unpackText } from '../electron/engine/index/chunk-text';

const load = (): string => os.loadavg().map((x) => x.toFixed(1)).join(' / ');
const DEFAULT_FILE = path.join(os.tmpdir(), 'cairn-embed-texts-10k.json');


/** Records every text it is asked to embed; zero vectors. */
class Recording implements Embedder {
  readonly provider = 'local';
  readonly model = 'recording';
  readonly id = 'local:recording';
  readonly dims = 384;
  readonly texts: string[] = [];
  async embed(texts: string[], _opts?: EmbedOptions): Promise<Float32Array[]> {
    this.texts.push(...texts);
    return texts.map(() => {
      const v = new Float32Array(384);
      v[0] = 1;
      return v;
    });
  }
  async dispose(): Promise<void> {}
}

interface Dump {
  /** Each chunk's embedded body, its line units and (for `units`) its raw text, in index order. */
  chunks: { body: string; lines: string[]; text?: string }[];
  /** Texts the index embedded (unique: the pipeline dedupes by hash). */
  embedded: number;
}

async function dump(size: CorpusSize, out: string): Promise<void> {
  const corpus = await ensureCorpus(size, { log: (m) => console.error(m) });
  const loaded = loadConfig(corpus.dir);
  const paths = agentPaths(corpus.dir, loaded.config);
  const settings = loaded.config.memory.search;
  const emb = new Recording();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-dump-'));
  const roots = { workspace: paths.workspace, sessionsDir: paths.sessionsDir, extraPaths: settings.extraPaths, sources: settings.sources };
  const idx = MemoryIndex.open({ agentId: 'main', indexFile: path.join(dir, 'i.sqlite'), roots, settings, embedder: emb, now: () => CORPUS_NOW });
  const res = await idx.sync({ force: true });
  await idx.dispose();
  const db = new Database(path.join(dir, 'i.sqlite'), { readonly: true });
  const rows = (db.prepare('SELECT text, heading, day, dated FROM chunks ORDER BY id').all() as { text: string | Buffer; heading: string | null; day: string | null; dated: number }[]).map((r) => ({ ...r, text: unpackText(r.text) }));
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const d: Dump = { chunks: rows.map((r) => ({ body: chunkBody(r.day, r.dated === 1, r.heading, r.text), lines: lineUnits(r.text), text: r.text })), embedded: emb.texts.length };
  fs.writeFileSync(out, JSON.stringify(d));
  const lines = d.chunks.reduce((n, c) => n + c.lines.length, 0);
  console.log(`${res.chunks} chunks, ${lines} line units; ${emb.texts.length} texts embedded (unique) → ${out}`);
}

/** The unique texts of a dump, tagged chunk body or line unit (as the pipeline dedupes them). */
function uniqueTexts(file: string): { text: string; line: boolean }[] {
  const d = JSON.parse(fs.readFileSync(file, 'utf8')) as Dump;
  const seen = new Set<string>();
  const out: { text: string; line: boolean }[] = [];
  for (const c of d.chunks) {
    for (const [i, t] of [c.body, ...c.lines].entries()) {
      if (seen.has(t)) continue;
      seen.add(t);
      out.push({ text: t, line: i > 0 });
    }
  }
  return out;
}

/** Every k-th text: the corpus's real mix of chunk bodies and line units, in index order. */
function sample<T>(xs: T[], n: number): T[] {
  const step = xs.length / n;
  return Array.from({ length: Math.min(n, xs.length) }, (_, i) => xs[Math.floor(i * step)]!);
}

async function tokens(file: string): Promise<void> {
  const texts = uniqueTexts(file);
  const e = await createGgufEmbedder({ modelPath: benchModelPath(), contexts: 1 });
  const rows = { chunk: [] as number[], line: [] as number[] };
  for (const t of texts) rows[t.line ? 'line' : 'chunk'].push(Math.min(e.countTokens(t.text), 254) + 2);
  await e.dispose();
  console.log(`### Tokens the 10k index embeds (${texts.length.toLocaleString('en')} unique texts; [CLS]/[SEP] included, cut at 256)\n`);
  console.log('| texts | count | tokens | tokens/text p50 / mean / p95 | share of tokens |\n|---|---|---|---|---|');
  const all = rows.chunk.reduce((a, b) => a + b, 0) + rows.line.reduce((a, b) => a + b, 0);
  for (const [name, xs] of Object.entries(rows)) {
    const sorted = [...xs].sort((a, b) => a - b);
    const sum = xs.reduce((a, b) => a + b, 0);
    console.log(`| ${name === 'chunk' ? 'chunk bodies' : 'line units'} | ${xs.length.toLocaleString('en')} | ${sum.toLocaleString('en')} | ${sorted[Math.floor(xs.length / 2)]} / ${(sum / xs.length).toFixed(0)} / ${sorted[Math.floor(xs.length * 0.95)]} | ${((100 * sum) / all).toFixed(0)}% |`);
  }
  console.log(`\nAll: ${all.toLocaleString('en')} tokens.`);
}

/** texts/s, wall and CPU, for one configuration on `texts`. */
async function runOne(texts: string[], contexts: number, sorted: boolean): Promise<string> {
  const e = await createGgufEmbedder({ modelPath: benchModelPath(), contexts });
  await e.embed(texts.slice(0, 2 * contexts));
  const input = sorted ? [...texts].sort((a, b) => a.length - b.length) : texts;
  const hist = monitorEventLoopDelay({ resolution: 5 });
  hist.enable();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < input.length; i += 96) await e.embed(input.slice(i, i + 96));
  const wall = (performance.now() - t0) / 1000;
  hist.disable();
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  await e.dispose();
  return `| ${contexts} | ${sorted ? 'sorted by length' : 'index order'} | ${texts.length} | ${wall.toFixed(1)} s | ${cpu.toFixed(1)} s | ${(texts.length / wall).toFixed(1)} | ${((cpu * 1000) / texts.length).toFixed(1)} ms | ${(hist.max / 1e6).toFixed(0)} ms | ${load()} |`;
}

async function run(file: string, n: number, contexts: number[], orders: string[]): Promise<void> {
  const texts = sample(uniqueTexts(file), n).map((t) => t.text);
  console.log(`### all-MiniLM-L6-v2 on ${texts.length} texts sampled from the 10k index's texts (load at start ${load()})\n`);
  console.log('| contexts | order | texts | wall | CPU | texts/s (wall) | CPU per text | longest event-loop stall | load after |\n|---|---|---|---|---|---|---|---|---|');
  for (const c of contexts) for (const o of orders) console.log(await runOne(texts, c, o === 'sorted'));
}

async function main(): Promise<void> {
  const [mode, a1, a2, a3, a4] = process.argv.slice(2);
  if (mode === 'dump') await dump((a1 ?? '10k') as CorpusSize, a2 ?? DEFAULT_FILE);
  else if (mode === 'tokens') await tokens(a1 || DEFAULT_FILE);
  else if (mode === 'run') await run(a1 || DEFAULT_FILE, Number(a2 ?? 2400), (a3 ?? '1,2').split(',').map(Number), (a4 ?? 'as-is,sorted').split(','));
  else throw new Error(`unknown mode ${mode}`);
}
await main();
