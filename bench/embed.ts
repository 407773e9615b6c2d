/**
 * Embedder benchmarks (`node --import tsx bench/embed.ts`): the shipped static model's
 * size and load time, static (potion-base-8M) embed throughput on ~1,600-char chunks (the
 * chunker's size), and the tiny generated GGUF model's embed latency
 * through node-llama-cpp with threads 1 (and 2, and flash attention, for comparison). Prints Markdown tables.
 *
 * Wall time on a shared 2-core machine swings with other processes' load, so throughput is
 * also given per CPU-second (process.cpuUsage, all threads), which swings much less.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StaticModel } from '../electron/engine/embed/static-format';
import { PotionEmbedder, shippedPotionModel } from '../electron/engine/embed/potion';
import { createGgufEmbedder } from '../electron/engine/embed/gguf';
import { tinyGgufPath } from '../testkit/tiny-gguf';
import { quantile, timed } from './lib/stats';

const WORDS = (
  'project meeting decided database migration postgres schema deploy friday release notes customer feedback ' +
  'coffee morning routine running training plan marathon doctor appointment dentist tuesday invoice budget ' +
  'travel flight berlin hotel booking conference talk slides review pull request bug crash memory leak fix ' +
  'garden tomatoes watering weekend family dinner recipe pasta birthday gift sister book reading list'
).split(' ');

/** Deterministic pseudo-random prose, cut into `n` chunks of about `chars` characters. */
function chunks(n: number, chars: number): string[] {
  let seed = 42;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = '';
    while (s.length < chars) {
      const len = 6 + Math.floor(rnd() * 10);
      const words = Array.from({ length: len }, () => WORDS[Math.floor(rnd() * WORDS.length)] as string);
      s += `The ${words.join(' ')}. `;
    }
    out.push(s.slice(0, chars));
  }
  return out;
}

const pct = (xs: number[], p: number): number => quantile(xs, p / 100);
const ms = (x: number): string => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
/** CPU milliseconds (user + system, all threads) and wall time spent by `fn`. */
const cpu = timed;

async function main(): Promise<void> {
  const loadAtStart = os.loadavg()[0]?.toFixed(1) ?? '?';
  {
    // 1. The shipped model: nothing converted, one read.
    const file = shippedPotionModel();
    const loads: number[] = [];
    let model: StaticModel | undefined;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      model = new StaticModel(fs.readFileSync(file));
      loads.push(performance.now() - t);
    }
    console.log('### Static model (potion-base-8M, shipped): size and load\n');
    console.log('| metric | value |\n|---|---|');
    console.log(`| ${path.basename(file)} (Int8 + hash table) | ${(fs.statSync(file).size / 1e6).toFixed(1)} MB, ${model!.count.toLocaleString('en')} pieces × ${model!.dims} d |`);
    console.log(`| load (readFileSync + views), median of 5 | ${ms(pct(loads, 50))} |`);

    // 2. Static throughput on chunk-sized texts.
    const emb = new PotionEmbedder(model as StaticModel);
    const texts = chunks(2000, 1600);
    await emb.embed(texts.slice(0, 100)); // warm-up (JIT)
    const rows: string[] = [];
    for (const [label, batch] of [
      ['1,600-char chunks', texts],
      ['short queries (~40 chars)', chunks(20000, 40)],
    ] as const) {
      const n = (batch as string[]).length;
      const { cpuMs, wallMs } = await cpu(() => emb.embed(batch as string[]));
      const rate = (t: number): string => Math.round((n / t) * 1000).toLocaleString('en');
      rows.push(`| ${label} | ${n.toLocaleString('en')} | ${rate(wallMs)} | ${rate(cpuMs)} | ${((cpuMs * 1000) / n).toFixed(1)} µs |`);
    }
    console.log('\n### Static embed throughput (potion: mean of WordPiece rows, one thread)\n');
    console.log('| texts | count | texts/s (wall) | texts per CPU-s | CPU per text |\n|---|---|---|---|---|');
    for (const r of rows) console.log(r);

    // 3. Tiny GGUF latency through node-llama-cpp.
    const tiny = await tinyGgufPath();
    console.log('\n### Tiny GGUF (generated 1-block BERT, potion token embeddings, 256 d) via node-llama-cpp\n');
    console.log('| threads | flash attention | load (runtime + model) | short text p50 / p95 | 1,600-char chunk p50 / p95 | CPU per chunk |\n|---|---|---|---|---|---|');
    for (const [threads, flashAttention] of [[1, false], [1, true], [2, false]] as const) {
      const t0 = performance.now();
      const g = await createGgufEmbedder({ modelPath: tiny, threads, flashAttention });
      const load = performance.now() - t0;
      const measure = async (batch: string[]): Promise<number[]> => {
        const out: number[] = [];
        for (const t of batch) {
          const s = performance.now();
          await g.embed([t]);
          out.push(performance.now() - s);
        }
        return out;
      };
      await measure(chunks(10, 200)); // warm-up
      const short = await measure(chunks(200, 40));
      const { value: long, cpuMs } = await cpu(() => measure(texts.slice(0, 100)));
      console.log(`| ${threads} | ${flashAttention ? 'on' : 'off'} | ${ms(load)} | ${ms(pct(short, 50))} / ${ms(pct(short, 95))} | ${ms(pct(long, 50))} / ${ms(pct(long, 95))} | ${ms(cpuMs / long.length)} |`);
      await g.dispose();
    }
    console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average at start ${loadAtStart}.`);
  }
}

await main();
