/**
 * Turn-loop overhead (issue 6, item 6): one chat turn with a tool round — everything but the
 * model (a zero-latency scripted model answers) — on a large transcript: open + append,
 * context rebuild, pruning, two model calls, tool run, cache-ttl marker, sessions.json update.
 * Prints a Markdown table.
 *
 *   node --import tsx --expose-gc bench/chat.ts [megabytes=50]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompactionSchema, ContextPruningSchema } from '../electron/engine/config/schema';
import { readTranscript } from '../electron/engine/transcript/read';
import { runTurn } from '../electron/engine/chat/turn';
import { checkinSession, checkoutSession } from '../electron/engine/chat/session-cache';
import { assembleContext } from '../electron/engine/assemble';
import { workspaceTools } from '../electron/engine/chat/tools/workspace';
import type { ChatRequest, ChatResult, LLM } from '../electron/engine/llm/types';
import { writeTranscript } from './lib/context-data';
import { median } from './lib/stats';

const MB = Number(process.argv[2] ?? 50);
const rssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

/** Answers instantly: a `read` call when the last message is the user's, then text. */
const instant: LLM = {
  provider: 'bench',
  model: 'instant',
  contextWindow: 10_000_000,
  async chat(req: ChatRequest): Promise<ChatResult> {
    const last = req.messages[req.messages.length - 1];
    const content: ChatResult['message']['content'] =
      last?.role === 'user' ? [{ type: 'toolCall', id: `c${Date.now()}`, name: 'read', arguments: { path: 'notes.md' } }] : [{ type: 'text', text: 'ok' }];
    const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
    const stopReason = last?.role === 'user' ? 'toolUse' : 'stop';
    return { message: { role: 'assistant', content, usage, stopReason }, usage, stopReason };
  },
  async dispose() {},
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-chat-'));
// The held chat sessions are a member of an engine context (chat/session-cache.ts).
const ctx = assembleContext({ stateDir: dir });
try {
  const workspace = path.join(dir, 'workspace');
  fs.mkdirSync(workspace, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'notes.md'), 'a short note\n');
  const file = path.join(dir, 'bench.jsonl');
  const { entries } = writeTranscript(file, MB);
  const sizeMb = fs.statSync(file).size / 1024 / 1024;

  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const reads: number[] = [];
  const readsCpu: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const c0 = cpuMs();
    readTranscript(file);
    reads.push(performance.now() - t0);
    readsCpu.push(cpuMs() - c0);
  }
  const cold: number[] = [];
  const warm: number[] = [];
  const coldCpu: number[] = [];
  const warmCpu: number[] = [];
  for (let i = 0; i < 6; i++) {
    // Odd turns reuse the handle held since the previous turn (as chat.send does); even ones open the file.
    const reuse = i % 2 === 1;
    const t0 = performance.now();
    const c0 = cpuMs();
    const session = reuse ? checkoutSession(ctx, file) : undefined;
    await runTurn(`question ${i}`, {
      session,
      llm: instant,
      file,
      sessionId: 'bench',
      sessionsIndex: path.join(dir, 'sessions.json'),
      system: 'bench',
      tools: workspaceTools({ workspace, writable: () => true }),
      compaction: CompactionSchema.parse({ memoryFlush: { enabled: false } }),
      pruning: ContextPruningSchema.parse({}),
      contextTokens: 200_000,
      workspace,
      writable: true,
    });
    (reuse ? warm : cold).push(performance.now() - t0);
    (reuse ? warmCpu : coldCpu).push(cpuMs() - c0);
    // Hold a fresh handle for the next (warm) turn.
    if (!reuse) checkinSession(ctx, file, checkoutSession(ctx, file));
  }
  const both = (w: number[], c: number[]) => `${median(w).toFixed(0)} ms / ${median(c).toFixed(0)} ms`;
  console.log(`| measure (${sizeMb.toFixed(1)} MB transcript, ${entries} entries) | median wall / CPU |`);
  console.log('|---|---|');
  console.log(`| read + parse the transcript once | ${both(reads, readsCpu)} |`);
  console.log(`| one turn with a tool round (2 model calls, zero-latency model), file opened for the turn | ${both(cold, coldCpu)} |`);
  console.log(`| the same, handle held from the previous turn (chat.send) | ${both(warm, warmCpu)} |`);
  console.log(`| peak RSS | ${rssMb()} MB |`);
} finally {
  await ctx.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
}
