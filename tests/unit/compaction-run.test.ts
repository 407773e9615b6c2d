/** compact(): model summaries, fallbacks, cancellation, checkpoints, and the dry run through the engine (no model call, no write). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { compact } from '../../electron/engine/compaction/compact';
import { listCheckpoints } from '../../electron/engine/compaction/write';
import { readTranscript } from '../../electron/engine/transcript/read';
import { buildContext, COMPACTION_SUMMARY_PREFIX } from '../../electron/engine/transcript/context';
import { readSessionIndex } from '../../electron/engine/transcript/sessions-index';
import { SummarizerLLM } from '../helpers/test-llms';
import { makeSession, addTurn } from '../helpers/sessions';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { copyFixture, FIXTURE_SESSION_ID } from '../helpers/fixtures';
import { freezeTree, snapshotTree } from '../helpers/tree-snapshot';

const settings = (over: Record<string, unknown> = {}) => CompactionSchema.parse(over);
const textOf = (m: unknown) => ((m as { content: { text: string }[] }).content[0]?.text ?? '');

describe('compact() with a model', () => {
  it('appends one compaction entry after a checkpoint, keeps every old byte, and the context rebuilds from it', async () => {
    const { file } = makeSession(10, { resultChars: 800 });
    const before = fs.readFileSync(file, 'utf8');
    const llm = new SummarizerLLM();
    const r = await compact({ file, settings: settings({ keepRecentTokens: 600 }), contextWindowTokens: 100_000, llm, trigger: 'threshold' });
    expect(r.compacted).toBe(true);
    if (!r.compacted) return;
    const after = fs.readFileSync(file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length).trim().split('\n')).toHaveLength(1);
    const t = readTranscript(file);
    const entry = t.entries.at(-1);
    expect(entry).toMatchObject({ type: 'compaction', firstKeptEntryId: r.plan.firstKeptEntryId, tokensBefore: r.tokensBefore });
    expect(entry?.id).toMatch(/^[0-9a-f]{8}$/);
    expect((entry?.details as { readFiles: string[]; modifiedFiles: string[] }).modifiedFiles).toContain('src/mod1.ts');
    expect((entry?.details as { readFiles: string[] }).readFiles).toContain('src/mod0.ts');
    expect(r.checkpoint && fs.readFileSync(r.checkpoint, 'utf8')).toBe(before);
    expect(r.checkpoint).toBe(`${file}.checkpoint.${path.basename(r.checkpoint ?? '').split('.checkpoint.')[1]}`);
    const ctx = buildContext(t);
    expect(textOf(ctx.messages[0]).startsWith(COMPACTION_SUMMARY_PREFIX)).toBe(true);
    expect(ctx.sources[1]?.entryId).toBe(r.plan.firstKeptEntryId);
    expect(r.tokensAfter).toBeLessThan(r.tokensBefore);
    // the model got exactly the dry run's prompt
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]?.system).toBe(r.plan.prompt.system);
    expect(llm.calls[0]?.messages[0]?.content).toBe(r.plan.prompt.user);
    // pi-compatible file tags and the model's identifiers are in the summary
    expect(r.summary).toContain('<modified-files>\nsrc/mod1.ts');
    expect(r.summary).toContain('- src/mod0.ts');
  });

  it('updates the previous summary and sessions.json (compactionCount, totalTokens, updatedAt)', async () => {
    const { transcript, sessionsDir } = copyFixture({ writable: true });
    const llm = new SummarizerLLM();
    const r = await compact({
      file: transcript, settings: settings({ keepRecentTokens: 30 }), contextWindowTokens: 100_000, llm,
      now: () => new Date('2025-03-02T12:00:00Z'),
      sessionIndex: { file: path.join(sessionsDir, 'sessions.json'), sessionId: FIXTURE_SESSION_ID },
    });
    expect(r.compacted).toBe(true);
    expect(String(llm.calls[0]?.messages[0]?.content)).toContain('<previous-summary>');
    const idx = readSessionIndex(path.join(sessionsDir, 'sessions.json'));
    expect(idx['agent:main:main']).toMatchObject({ compactionCount: 2, updatedAt: Date.parse('2025-03-02T12:00:00Z'), chatType: 'direct', lastChannel: 'telegram' });
    if (r.compacted) expect(idx['agent:main:main']?.totalTokens).toBe(r.tokensAfter);
    // malformed and unknown lines are still there after the atomic append
    const t = readTranscript(transcript);
    expect(t.malformed).toHaveLength(1);
    expect(t.entries.some((e) => e.type === 'x_cairn_future')).toBe(true);
    // the older compaction is still in the file, the newest one rules the context
    expect(t.entries.filter((e) => e.type === 'compaction')).toHaveLength(2);
    if (r.compacted) expect(buildContext(t).compaction?.id).toBe(r.entry.id);
  });

  it('summarises history larger than the summariser window in stages, then merges', async () => {
    const { file } = makeSession(40, { resultChars: 1800 });
    const llm = new SummarizerLLM(6000);
    const progress: string[] = [];
    const r = await compact({
      file, settings: settings({ keepRecentTokens: 500 }), contextWindowTokens: 200_000, llm,
      onProgress: (p) => progress.push(`${p.phase}:${p.label}`),
    });
    expect(r.compacted && r.extract).toBe(false);
    const prompts = llm.calls.map((c) => String(c.messages[0]?.content));
    const parts = prompts.filter((p) => p.includes('<conversation part='));
    expect(parts.length).toBeGreaterThan(1);
    expect(prompts.at(-1)).toContain('<partial-summary part="2">');
    for (const c of llm.calls) expect(Math.ceil(((c.system ?? '').length + String(c.messages[0]?.content).length) / 4)).toBeLessThanOrEqual(6000);
    expect(progress).toContain('summarize:summarising part 1 of ' + parts.length);
    expect(progress.at(-1)).toBe('done:compacted');
  });

  it('a context overflow from the summariser shrinks the input instead of getting stuck', async () => {
    const { file } = makeSession(12, { resultChars: 1800 });
    // The plan thinks the window is huge (the LLM reports none) but the model overflows at 2,500 tokens.
    const llm = new SummarizerLLM(2500, { reportedWindow: undefined });
    const r = await compact({ file, settings: settings({ keepRecentTokens: 300 }), contextWindowTokens: 200_000, llm });
    expect(r.compacted && r.extract).toBe(false);
    expect(llm.calls.length).toBeGreaterThan(2);
    expect(llm.calls[0]?.messages[0]?.content).toContain('<conversation>'); // first tried whole, then shrank
    expect(String(llm.calls.at(-1)?.messages[0]?.content)).toContain('<partial-summary');
  });
});

describe('compact() fallbacks', () => {
  it('without a model writes the deterministic extract, marked as such, keeping identifiers', async () => {
    const { transcript } = copyFixture();
    const r = await compact({ file: transcript, settings: settings({ keepRecentTokens: 30 }), contextWindowTokens: 100_000 });
    expect(r.compacted).toBe(true);
    if (!r.compacted) return;
    expect(r.extract).toBe(true);
    expect(r.entry.details).toMatchObject({ extract: true, extractReason: 'no model configured' });
    for (const id of ['src/server.ts', '127.0.0.1:8787', 'docs/deploy.md', '/home/ana/shots/failure.png', 'tests/port.test.ts']) {
      expect(r.summary).toContain(id);
    }
    // the previous summary's decision first, then the new part's
    expect(r.summary).toMatch(/## Decisions\n- Server port is 8787 on 127\.0\.0\.1 \(was 3000\)\.\n- The screenshot shows EADDRINUSE on 8787.*We decided to keep 8787/);
    expect(r.summary).toMatch(/## Pending user asks\n(- .*\n)*- Run the tests and show me the failures\./);
    // the previous summary (with its TODO) is carried forward section by section, not lost
    expect(r.summary).toContain('The previous summary is carried forward');
    expect(r.summary).toContain('- Update docs/deploy.md.');
    expect(r.summary).not.toMatch(/^- \/png$/m);
    expect(r.summary.length).toBeLessThanOrEqual(16000);
  });

  it('a failing model falls back to the extract; the reason is recorded', async () => {
    const { file } = makeSession(8);
    const llm = new SummarizerLLM(100_000, { failWith: () => new Error('HTTP 503 from provider') });
    const r = await compact({ file, settings: settings({ keepRecentTokens: 200 }), contextWindowTokens: 100_000, llm });
    expect(r.compacted && r.extract).toBe(true);
    if (r.compacted) {
      expect(r.extractReason).toBe('the model failed: HTTP 503 from provider');
      expect(r.summary).toContain('src/mod0.ts');
    }
  });

  it('leaves out a message larger than half the window and notes it, when the full request fails', async () => {
    const { file, session } = makeSession(1);
    session.appendMessage({ role: 'user', content: `Here is a log: ${'z'.repeat(40000)}` });
    session.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'Noted.' }] });
    addTurn(session, 5);
    const llm = new SummarizerLLM(16000, { failWith: (n) => (n === 1 ? new Error('upstream error') : undefined) });
    const r = await compact({ file, settings: settings({ keepRecentTokens: 100 }), contextWindowTokens: 16000, llm });
    expect(r.compacted && r.extract).toBe(false);
    const second = String(llm.calls[1]?.messages[0]?.content);
    expect(second).toContain('[Large user (~10K tokens) omitted from summary]');
  });

  it('caps any summary at 16,000 chars', async () => {
    const { file } = makeSession(6);
    const llm = new SummarizerLLM();
    llm.chat = async () => ({
      // long but not degenerate (a 'w' × 30,000 loop is now rejected by the summary judge)
      message: { role: 'assistant', content: [{ type: 'text', text: `## Decisions\n${Array.from({ length: 2500 }, (_, i) => `- decision number ${i}`).join('\n')}` }] },
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
      stopReason: 'stop',
    });
    const r = await compact({ file, settings: settings({ keepRecentTokens: 100 }), contextWindowTokens: 100_000, llm });
    expect(r.compacted && r.summary.length).toBe(16000);
    expect(r.compacted && r.summary.endsWith('[Summary truncated at 16000 characters]')).toBe(true);
  });
});

describe('compact() cancellation and failure leave the file byte-identical', () => {
  it('an abort during the model call writes nothing (no entry, no checkpoint)', async () => {
    const { file } = makeSession(8);
    const before = fs.readFileSync(file);
    const ac = new AbortController();
    // The model holds the call until aborted; abort once the request has provably reached it.
    const llm = new SummarizerLLM(100_000, { hold: true });
    const p = compact({ file, settings: settings({ keepRecentTokens: 200 }), contextWindowTokens: 100_000, llm, signal: ac.signal });
    const req = await llm.reached;
    expect(String(req.messages[0]?.content)).toContain('<conversation>');
    ac.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(llm.calls).toHaveLength(1);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
    expect(listCheckpoints(file)).toEqual([]);
  });

  it('a file rewritten by someone else meanwhile is not overwritten', async () => {
    const { file } = makeSession(8);
    const llm = new SummarizerLLM();
    const original = llm.chat.bind(llm);
    llm.chat = async (req) => {
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Ask 7', 'ASK 7'));
      return original(req);
    };
    await expect(compact({ file, settings: settings({ keepRecentTokens: 200 }), contextWindowTokens: 100_000, llm })).rejects.toThrow(/rewritten/);
    expect(readTranscript(file).entries.some((e) => e.type === 'compaction')).toBe(false);
    expect(listCheckpoints(file)).toEqual([]);
  });

  it('lines appended while the summary ran are kept, and the entry hangs under the newest one', async () => {
    const { file, session } = makeSession(8);
    const llm = new SummarizerLLM();
    const original = llm.chat.bind(llm);
    let appendedId = '';
    llm.chat = async (req) => {
      appendedId = session.appendMessage({ role: 'user', content: 'one more thing' }).id;
      return original(req);
    };
    const r = await compact({ file, settings: settings({ keepRecentTokens: 200 }), contextWindowTokens: 100_000, llm });
    expect(r.compacted).toBe(true);
    const t = readTranscript(file);
    expect(t.entries.at(-1)?.parentId).toBe(appendedId);
    const ctx = buildContext(t);
    expect(ctx.sources.some((s) => s.entryId === appendedId)).toBe(true);
  });

  it('keeps at most 3 checkpoints per transcript', async () => {
    const { file, session } = makeSession(6);
    for (let i = 0; i < 5; i++) {
      addTurn(session, 10 + i);
      session.reload();
      await compact({ file, settings: settings({ keepRecentTokens: 100 }), contextWindowTokens: 100_000 });
      session.reload();
    }
    expect(listCheckpoints(file)).toHaveLength(3);
  });
});

describe('dry run', () => {
  it('compact.plan on a writable state dir plans without calling the configured model and without writing', async () => {
    // Writable and with a model configured, so a write or a model call would be possible.
    const { stateDir, sessionsDir } = copyFixture({ writable: true });
    fs.writeFileSync(path.join(stateDir, 'openclaw.json'), '{ agents: { defaults: { compaction: { keepRecentTokens: 30 } } } }');
    const before = freezeTree(sessionsDir);
    const llm = new SummarizerLLM();
    const engine = createEngine({ stateDir, deps: { createLlm: () => llm } });
    try {
      const plan = await createDirectClient(engine)['compact.plan']({ sessionId: FIXTURE_SESSION_ID });
      expect(plan).toMatchObject({ possible: true, mode: 'single', stages: 1, summarizer: { provider: 'test', model: 'summarizer' } });
      expect(plan.cutEntryId).toBe(plan.firstKeptEntryId);
      expect(plan.tokensBefore).toBeGreaterThan(plan.keptTokens);
      expect(plan.prompt.user).toContain('<conversation>');
    } finally {
      await engine.dispose();
    }
    expect(llm.calls).toEqual([]);
    expect(snapshotTree(sessionsDir)).toEqual(before);
  });
});
