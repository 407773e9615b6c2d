/**
 * Context engine benchmarks (issue 6): pruning a 1,000-message session with 200 large tool
 * results (target ≤ 2 ms per call), loading and rebuilding the context of a 50 MB transcript
 * (≤ 1 s), a compaction's own work on it — everything but the model (≤ 500 ms) — and peak RSS.
 * Prints a Markdown table.
 *
 *   node --import tsx --expose-gc bench/context.ts [megabytes=50]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Message } from '../shared/types/messages';
import { CompactionSchema, ContextPruningSchema } from '../electron/engine/config/schema';
import { prune } from '../electron/engine/pruning';
import { readTranscript } from '../electron/engine/transcript/read';
import { buildContext } from '../electron/engine/transcript/context';
import { estimateTokens } from '../electron/engine/transcript/tokens';
import { compact } from '../electron/engine/compaction/compact';
import { planCompaction } from '../electron/engine/compaction/plan';
import type { ChatRequest, ChatResult, LLM } from '../electron/engine/llm/types';
import { text, writeTranscript } from './lib/context-data';
import { median, quantile, timedSync } from './lib/stats';

const MB = Number(process.argv[2] ?? 50);
const rssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);
const p95 = (xs: number[]) => quantile(xs, 0.95);
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** 1,000 messages: 200 turns of user → assistant(tool call) → tool result → assistant … */
function pruneSession(): Message[] {
  const m: Message[] = [{ role: 'user', content: 'start' }];
  let results = 0;
  for (let i = 0; m.length < 1000; i++) {
    if (results < 200) {
      m.push({ role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'toolCall', id: `c${i}`, name: 'read', arguments: { path: `src/f${i}.ts` } }] });
      m.push({ role: 'toolResult', toolCallId: `c${i}`, toolName: 'read', content: [{ type: 'text', text: text(20_000, i) }], isError: false });
      results++;
    } else {
      m.push({ role: i % 2 ? 'user' : 'assistant', content: i % 2 ? `question ${i}` : [{ type: 'text', text: `answer ${i}` }] } as Message);
    }
  }
  return m;
}

function benchPrune(): string[][] {
  const settings = ContextPruningSchema.parse({});
  const opts = { contextWindowTokens: 200_000, now: 10 * 60_000, lastCallAt: 0 };
  const cold: number[] = [];
  for (let k = 0; k < 5; k++) {
    const fresh = pruneSession();
    const t0 = performance.now();
    prune(fresh, settings, opts);
    cold.push(performance.now() - t0);
  }
  const msgs = pruneSession();
  let r = prune(msgs, settings, opts);
  const warm: number[] = [];
  for (let k = 0; k < 300; k++) {
    const t0 = performance.now();
    r = prune(msgs, settings, opts);
    warm.push(performance.now() - t0);
  }
  const d = r.diff;
  const note = `ratio ${d.ratioBefore.toFixed(2)} → ${d.ratioAfter.toFixed(2)}, ${d.softTrimmed} soft-trimmed, ${d.cleared} cleared`;
  return [
    ['prune, 1,000 msgs / 200 × 20 KB results, same messages again (turn loop)', `${ms(median(warm))} median, ${ms(p95(warm))} p95`, '≤ 2 ms', median(warm) <= 2 ? 'yes' : 'NO', note],
    ['prune, same, first call on new message objects (cold)', `${ms(median(cold))} median`, '—', '', 'scans every tool result once (CJK weight cache)'],
  ];
}

/** A summariser that answers at once: the bench measures everything but the model. */
const instantLlm: LLM = {
  provider: 'bench',
  model: 'instant',
  contextWindow: 200_000,
  async chat(_req: ChatRequest): Promise<ChatResult> {
    const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
    return { message: { role: 'assistant', content: [{ type: 'text', text: '## Decisions\n- (bench)\n## Exact identifiers\n- src/mod1.ts' }] }, usage, stopReason: 'stop' };
  },
  async dispose() {},
};

async function benchTranscript(): Promise<string[][]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-context-'));
  try {
    const file = path.join(dir, 'big.jsonl');
    const { entries } = writeTranscript(file, MB);
    const size = fs.statSync(file).size;
    const sizeNote = `${(size / 1024 / 1024).toFixed(1)} MB, ${entries} entries`;
    const loads: number[] = [];
    const loadCpu: number[] = [];
    let tokens = 0;
    for (let k = 0; k < 5; k++) {
      gc();
      const { value: ctx, wallMs, cpuMs } = timedSync(() => buildContext(readTranscript(file)));
      loads.push(wallMs);
      loadCpu.push(cpuMs);
      tokens = estimateTokens(ctx.messages);
    }
    gc();
    let t = readTranscript(file);
    const p0 = performance.now();
    const plan = planCompaction(t, { settings: CompactionSchema.parse({}), contextWindowTokens: 200_000, summarizerWindowTokens: 200_000 });
    const planMs = performance.now() - p0;
    const own: number[] = [];
    const ownCpu: number[] = [];
    const fromDisk: number[] = [];
    const extractRuns: number[] = [];
    const original = path.join(dir, 'original.jsonl');
    fs.copyFileSync(file, original);
    const settings = CompactionSchema.parse({});
    for (let k = 0; k < 3; k++) {
      // The turn loop's case: the transcript is already in memory.
      fs.copyFileSync(original, file);
      t = readTranscript(file);
      gc();
      const c0 = process.cpuUsage();
      let t0 = performance.now();
      const r = await compact({ file, settings, contextWindowTokens: 200_000, llm: instantLlm, transcript: t });
      own.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      ownCpu.push((c.user + c.system) / 1000);
      if (!r.compacted) throw new Error(r.reason);
      // From disk (compact.run, the CLI): reading and parsing included.
      fs.copyFileSync(original, file);
      gc();
      t0 = performance.now();
      await compact({ file, settings, contextWindowTokens: 200_000, llm: instantLlm });
      fromDisk.push(performance.now() - t0);
      fs.copyFileSync(original, file);
      gc();
      t0 = performance.now();
      await compact({ file, settings, contextWindowTokens: 200_000 });
      extractRuns.push(performance.now() - t0);
    }
    return [
      ['load + rebuild context (read, parse every line, branch, rebuild)', `${ms(median(loads))} median (CPU ${ms(median(loadCpu))})`, '≤ 1 s', median(loads) <= 1000 ? 'yes' : 'NO', `${sizeNote}; context ${tokens} tokens`],
      ['compaction plan (cut point, serialisation, prompt)', ms(planMs), '—', '', `${plan.toSummarize.length} messages to summarise, ${plan.mode} (${plan.stages} stages)`],
      ['compaction, own work, transcript in memory (plan, prompt, checkpoint, copy + append + fsync + rename, sessions.json)', `${ms(median(own))} median (CPU ${ms(median(ownCpu))})`, '≤ 500 ms', median(own) <= 500 ? 'yes' : 'NO', 'an LLM that answers at once stands in for the model'],
      ['compaction from disk (compact.run / CLI: read + parse too)', `${ms(median(fromDisk))} median`, '—', '', ''],
      ['compaction with the deterministic extract, from disk', `${ms(median(extractRuns))} median`, '—', '', 'no model'],
    ];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const rows: string[][] = [];
  rows.push(...benchPrune());
  rows.push(...(await benchTranscript()));
  rows.push(['peak RSS of this process (all of the above)', `${rssMb()} MB`, '—', '', `node ${process.version}, ${os.cpus().length} cores`]);
  console.log('| what | measured | target | met | notes |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

await main();
