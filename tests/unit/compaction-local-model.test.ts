/**
 * The memory flush and a model-written compaction with a real local model on its real 8k
 * window (SmolLM2-135M-Instruct through node-llama-cpp, from tests/helpers/test-models.ts):
 * a session seeded just past both thresholds runs the flush (only today's daily note may be
 * written, or nothing: the NO_REPLY path), then the pre-send compaction whose summary the
 * model writes (or, when the judge refuses it twice, the deterministic extract), then the
 * reply, without overflowing the context. Asserts files, entries and thresholds, never the
 * model's wording.
 *
 * Kept short but real: the seed is just past the thresholds (~5.4k estimated tokens instead
 * of the whole window), so the flush prompt and the summariser's prompt are as small as the
 * 8k window allows; maxOutputTokens 40 bounds the flush and the reply; threads 1, because at
 * 2 threads a loaded 2-core machine takes minutes per generated token (docs/llm-and-chat.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTurn } from '../../electron/engine/chat/turn';
import { workspaceTools } from '../../electron/engine/chat/tools/workspace';
import { CompactionSchema, ContextPruningSchema } from '../../electron/engine/config/schema';
import { identifierRetention } from '../../electron/engine/compaction/retention';
import { windowThresholds } from '../../electron/engine/compaction/thresholds';
import { LlamaLlm } from '../../electron/engine/llm/llama';
import { createTranscriptFile } from '../../electron/engine/transcript/append';
import { openSessionFile } from '../../electron/engine/transcript/session-file';
import { readSessionIndex } from '../../electron/engine/transcript/sessions-index';
import { estimateTextTokens } from '../../electron/engine/transcript/tokens';
import type { ChatEvent } from '../../shared/types/chat';
import { testModel } from '../helpers/test-models';
import { tmpDir, writeTree } from '../helpers/tmp';

const chat = testModel('chat');
const T0 = Date.parse('2026-11-30T09:00:00Z');
const WINDOW = 8192;
const SYSTEM = 'You are a helpful assistant.';

/** One exchange of a deployment conversation, ~1,100 characters, with identifiers in it. */
function exchange(i: number): [string, string] {
  const hash = `a1b2c3${i.toString(16).padStart(2, '0')}`;
  const user = `Step ${i}: the deploy of service-${i} to staging failed again. The log at /var/log/deploy/service-${i}.log says the health check on port ${8400 + i} timed out after 30 seconds. Can you look at what changed since commit ${hash}?`;
  const assistant = `For service-${i}, the health check on port ${8400 + i} times out because the new build reads its config from /etc/service-${i}/app.toml, which the staging image does not ship yet. Commit ${hash} moved the config path. Two fixes are possible: copy the file in the Dockerfile, or set SERVICE_CONFIG to the old path in the staging environment. I suggest the Dockerfile change, because the environment override would hide the problem in production. After that, rerun the pipeline and watch the health endpoint; it should answer within five seconds once the config loads.`;
  return [user, assistant];
}

type Line = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : (content as { type: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text ?? '').join('\n');

describe.skipIf(!chat.path)(`memory flush and compaction on SmolLM2's 8k window${chat.skip}`, () => {
  const llm = chat.path ? new LlamaLlm({ modelPath: chat.path, contextSize: WINDOW, threads: 1, maxOutputTokens: 40 }) : undefined;
  afterAll(async () => {
    await llm?.dispose();
  });

  it("flushes only to today's note, then compacts with a summary that keeps every identifier, and the reply fits the window", async () => {
    const dir = tmpDir();
    const workspace = path.join(dir, 'workspace');
    writeTree(workspace, { 'MEMORY.md': '# Memory\n- Staging runs on host stage-01\n', 'memory/2026-11-29.md': '- Yesterday: moved the CI runners\n' });
    const before = { memory: fs.readFileSync(path.join(workspace, 'MEMORY.md'), 'utf8'), yesterday: fs.readFileSync(path.join(workspace, 'memory/2026-11-29.md'), 'utf8') };
    const sessionsDir = path.join(dir, 'agents', 'main', 'sessions');
    const file = path.join(sessionsDir, 's1.jsonl');
    const tools = workspaceTools({ workspace, writable: () => true });
    const compaction = CompactionSchema.parse({});
    const limits = windowThresholds(WINDOW, compaction);
    // What the turn loop adds to the history for its thresholds (turn.ts): system + tool specs.
    const systemTokens = estimateTextTokens(SYSTEM) + estimateTextTokens(JSON.stringify(tools.map((t) => t.spec)));

    createTranscriptFile(file, { id: 's1', timestamp: new Date(T0).toISOString(), cwd: workspace });
    const seed = openSessionFile(file, { now: () => new Date(T0) });
    let seeded = 0;
    // Just past the flush threshold (which is below the pre-send compaction's): short prompts.
    for (let i = 0; seeded + systemTokens < limits.flushAt + 100; i++) {
      const [u, a] = exchange(i);
      seed.appendMessage({ role: 'user', content: u, timestamp: T0 + i * 60_000 });
      seed.appendMessage({ role: 'assistant', content: [{ type: 'text', text: a }], provider: 'llama', model: llm!.model, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }, stopReason: 'stop', timestamp: T0 + i * 60_000 + 1 });
      seeded += estimateTextTokens(u) + estimateTextTokens(a);
    }
    expect(limits.flushAt).toBeLessThan(limits.compactAt);
    // The pre-send check: (history + system) × 1.2 over the compaction threshold.
    expect((seeded + systemTokens) * 1.2).toBeGreaterThan(limits.compactAt);

    const events: ChatEvent[] = [];
    const now = new Date('2026-11-30T12:00:00Z');
    const res = await runTurn('What should I do next for the staging deploys?', {
      llm: llm!,
      file,
      sessionId: 's1',
      sessionsIndex: path.join(sessionsDir, 'sessions.json'),
      system: SYSTEM,
      tools,
      compaction,
      pruning: ContextPruningSchema.parse({}),
      contextTokens: WINDOW,
      workspace,
      writable: true,
      timeZone: 'UTC',
      now: () => now,
      emit: (e) => events.push(e),
    });

    // Protocol: flush first, then the pre-send compaction, then the reply; never an overflow.
    const kinds = events.map((e) => e.kind);
    expect(kinds).not.toContain('retry');
    const flush = events.find((e) => e.kind === 'flush');
    expect(flush).toMatchObject({ ran: true });
    const compacted = events.filter((e) => e.kind === 'compaction');
    expect(compacted).toHaveLength(1);
    expect(compacted[0]).toMatchObject({ trigger: 'preflight', compacted: true });
    expect(kinds.indexOf('flush')).toBeLessThan(kinds.indexOf('compaction'));
    expect(kinds.indexOf('compaction')).toBeLessThan(kinds.lastIndexOf('assistant'));
    expect(res.compactions).toBe(1);
    expect((compacted[0] as { tokensAfter: number }).tokensAfter).toBeLessThan(limits.compactAt);

    // The flush wrote only today's note (or nothing); other memory files are untouched.
    for (const p of (flush as { wrote: string[] }).wrote) expect(p).toBe('memory/2026-11-30.md');
    expect(fs.readFileSync(path.join(workspace, 'MEMORY.md'), 'utf8')).toBe(before.memory);
    expect(fs.readFileSync(path.join(workspace, 'memory/2026-11-29.md'), 'utf8')).toBe(before.yesterday);
    expect(fs.readdirSync(path.join(workspace, 'memory')).filter((f) => f !== '2026-11-29.md' && f !== '2026-11-30.md')).toEqual([]);
    expect(readSessionIndex(path.join(sessionsDir, 'sessions.json'))['s1']).toMatchObject({ compactionCount: 1, memoryFlushCompactionCount: 0 });

    // One compaction entry; its firstKeptEntryId is a message after the cut.
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
    const entries = lines.filter((l) => l.type === 'compaction');
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    const kept = lines.findIndex((l) => l.id === entry.firstKeptEntryId);
    expect(kept).toBeGreaterThan(1);
    expect(lines[kept]).toMatchObject({ type: 'message' });
    expect(kept).toBeLessThan(lines.indexOf(entry));
    // The summary is the model's (identifiers it dropped merged in) or the stated extract;
    // either way non-empty, and every identifier of the old part is in it.
    expect(entry.summary.trim().length).toBeGreaterThan(0);
    if (entry.details.extract) expect(entry.details.extractReason).toMatch(/rejected|failed|timed out/);
    else expect(entry.details.identifiers).toMatchObject({ notShown: 0 });
    const oldPart = lines.slice(1, kept).filter((l) => l.type === 'message').map((l) => textOf(l.message.content)).join('\n\n');
    const retained = identifierRetention(oldPart, entry.summary);
    expect(retained.total).toBeGreaterThan(5);
    expect(retained.missing).toEqual([]);

    // The reply came after the compaction, is the last message, and fit the window.
    const last = lines.filter((l) => l.type === 'message').pop()!;
    expect(last.message).toMatchObject({ role: 'assistant', provider: 'llama' });
    expect(lines.indexOf(last)).toBeGreaterThan(lines.indexOf(entry));
    expect(last.message.usage.totalTokens).toBeGreaterThan(0);
    expect(last.message.usage.totalTokens).toBeLessThanOrEqual(WINDOW);
  }, 1_800_000);
});
