/**
 * The local chat model in the loop (issue 15 item 8, chat half), with SmolLM2-135M-Instruct
 * Q4_1 (the test model of scripts/fetch-test-models.mjs) on its 8k window:
 *   - prompt evaluation and generation tokens/s at `threads` 1 and 2;
 *   - memory flush + model-written compaction wall time for one turn driven past the
 *     thresholds (runTurn, real tools, a seeded ~6.3k-token session);
 * (Identifier retention model-only vs merged is bench/retention.ts, item 5's.)
 * Prints Markdown tables. The numbers depend on the machine's load: say what it was.
 *
 *   node --import tsx bench/chat-local.ts [turnThreads=2] [speed|turn]
 *
 * turnThreads is the llama.cpp threads of the flush + compaction turn (2 = node-llama-cpp's
 * default on a 2-core box; 1 finishes sooner when other processes hold the cores). `speed`
 * or `turn` runs only that half. Every row states the load average it was taken at.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runTurn } from '../electron/engine/chat/turn';
import { workspaceTools } from '../electron/engine/chat/tools/workspace';
import { CompactionSchema, ContextPruningSchema } from '../electron/engine/config/schema';
import { LlamaLlm } from '../electron/engine/llm/llama';
import { createTranscriptFile } from '../electron/engine/transcript/append';
import { openSessionFile } from '../electron/engine/transcript/session-file';
import { estimateTextTokens } from '../electron/engine/transcript/tokens';
import { assistantTurn, rng, userTurn } from './lib/corpus-text';

const WINDOW = 8192;
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const models = JSON.parse(execFileSync(process.execPath, [path.join(root, 'scripts/fetch-test-models.mjs'), '--json', '--no-fetch'], { encoding: 'utf8' })) as { chat: string | null };
if (!models.chat) throw new Error('the chat test model is missing: run node scripts/fetch-test-models.mjs');
const modelPath = models.chat;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-chat-local-'));
const T0 = Date.parse('2026-11-30T09:00:00Z');
const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
const TURN_THREADS = Number(process.argv[2] ?? 2);
const only = process.argv[3];
const load = (): string => os.loadavg().map((x) => x.toFixed(1)).join(' / ');

/** A session file of ~`tokens` estimated tokens of seeded conversation; returns its path. */
function seedSession(name: string, seed: number, tokens: number): { file: string; workspace: string } {
  const base = path.join(dir, name);
  const workspace = path.join(base, 'workspace');
  fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'MEMORY.md'), '# Memory\n');
  const file = path.join(base, 'agents/main/sessions/s1.jsonl');
  createTranscriptFile(file, { id: 's1', timestamp: new Date(T0).toISOString(), cwd: workspace });
  const s = openSessionFile(file, { now: () => new Date(T0) });
  const r = rng(seed);
  for (let n = 0, i = 0; n < tokens; i++) {
    const u = userTurn(r);
    const a = assistantTurn(r);
    s.appendMessage({ role: 'user', content: u, timestamp: T0 + i * 60_000 });
    s.appendMessage({ role: 'assistant', content: [{ type: 'text', text: a }], provider: 'llama', model: 'seed', usage: zero, stopReason: 'stop', timestamp: T0 + i * 60_000 + 1 });
    n += estimateTextTokens(u) + estimateTextTokens(a);
  }
  return { file, workspace };
}

try {
  // 1. Speed at threads 1 and 2: a ~1,000-token prompt (1 output token), then 64 generated tokens.
  if (only !== 'turn') {
    console.log('| threads | prompt eval (tokens/s) | generation (tokens/s) | load average (1 / 5 / 15 min) after the row |');
    console.log('|---|---|---|---|');
    const prompt = Array.from({ length: 60 }, (_, i) => `Note ${i}: the build of service-${i} on port ${8000 + i} passed.`).join('\n');
    for (const threads of [1, 2]) {
      const llm = new LlamaLlm({ modelPath, contextSize: WINDOW, threads });
      await llm.load();
      let t = performance.now();
      const p = await llm.chat({ messages: [{ role: 'user', content: `${prompt}\nWhich port does service-7 use?` }], maxTokens: 1 });
      const promptRate = p.usage.input / ((performance.now() - t) / 1000);
      // Same prompt again: evaluation is cached, so nearly all the time is generation.
      t = performance.now();
      const g = await llm.chat({ messages: [{ role: 'user', content: 'Write a short story about a lighthouse keeper.' }], maxTokens: 64 });
      const genRate = g.usage.output / ((performance.now() - t) / 1000);
      console.log(`| ${threads} | ${promptRate.toFixed(0)} (${p.usage.input} tokens) | ${genRate.toFixed(1)} (${g.usage.output} tokens, incl. a ${g.usage.input}-token prompt) | ${load()} |`);
      await llm.dispose();
    }
  }
  if (only !== 'speed') {
    // 2. Flush + compaction on the 8k window, one turn driven past the thresholds.
    const llm = new LlamaLlm({ modelPath, contextSize: WINDOW, threads: TURN_THREADS, maxOutputTokens: 64 });
    const loadBefore = load();
    const { file, workspace } = seedSession('turn', 1, 6_300);
    const stamps: Record<string, number> = {};
    const seen: Record<string, unknown> = {};
    const t0 = performance.now();
    await runTurn('What should we do next?', {
      llm, file, sessionId: 's1', sessionsIndex: path.join(path.dirname(file), 'sessions.json'), system: 'You are a helpful assistant.',
      tools: workspaceTools({ workspace, writable: () => true }), compaction: CompactionSchema.parse({}), pruning: ContextPruningSchema.parse({}),
      contextTokens: WINDOW, workspace, writable: true, timeZone: 'UTC', now: () => new Date('2026-11-30T12:00:00Z'),
      emit: (e) => {
        stamps[e.kind] ??= performance.now() - t0;
        if (e.kind === 'flush' || e.kind === 'compaction') seen[e.kind] ??= e;
      },
    });
    const total = performance.now() - t0;
    const s = (ms: number | undefined) => (ms === undefined ? 'did not run' : `${(ms / 1000).toFixed(1)} s`);
    console.log(`\n| one turn past the thresholds (8k window, ~6.3k-token session, maxOutputTokens 64, threads ${TURN_THREADS}; load ${loadBefore} before, ${load()} after) | wall |`);
    console.log('|---|---|');
    console.log(`| memory flush (from the turn's start) | ${s(stamps.flush)} |`);
    console.log(`| compaction, model-written summary | ${s(stamps.compaction !== undefined && stamps.flush !== undefined ? stamps.compaction - stamps.flush : stamps.compaction)} |`);
    console.log(`| whole turn incl. the reply | ${s(total)} |`);
    console.log(`\nflush event: ${JSON.stringify(seen.flush ?? null)}\ncompaction event: ${JSON.stringify(seen.compaction ?? null)}`);

    await llm.dispose();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
