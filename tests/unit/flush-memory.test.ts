import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { shouldFlush, flushThreshold } from '../../electron/engine/compaction/flush-threshold';
import { flushToolRunner, todayIn, appendWithoutDuplicates } from '../../electron/engine/compaction/flush-tools';
import { isNoReply, runFlushTurn } from '../../electron/engine/compaction/flush-turn';
import { maybeRunMemoryFlush } from '../../electron/engine/compaction/flush';
import { compact } from '../../electron/engine/compaction/compact';
import { readSessionIndex, updateSessionEntry } from '../../electron/engine/transcript/sessions-index';
import { ScriptedLlm } from '../helpers/scripted-llm';
import { makeSession } from '../helpers/sessions';
import { tmpDir, writeTree } from '../helpers/tmp';

const settings = (over: Record<string, unknown> = {}) => CompactionSchema.parse(over);
const NOW = new Date('2025-03-02T23:30:00Z');

describe('flush threshold', () => {
  it('is contextWindow − reserveTokensFloor − softThresholdTokens, or the 2 MiB byte trigger', () => {
    const s = settings();
    expect(flushThreshold(200000, s)).toBe(176000);
    const base = { settings: s, contextWindow: 200000, transcriptBytes: 0, entry: undefined, writable: true };
    expect(shouldFlush({ ...base, projectedTokens: 175999 }).flush).toBe(false);
    expect(shouldFlush({ ...base, projectedTokens: 176000 }).flush).toBe(true);
    expect(shouldFlush({ ...base, projectedTokens: 10, transcriptBytes: 2 * 1024 * 1024 }).flush).toBe(true);
  });

  it('runs once per compaction cycle, never read-only, never when disabled', () => {
    const s = settings();
    const base = { settings: s, contextWindow: 200000, transcriptBytes: 0, projectedTokens: 190000, writable: true };
    expect(shouldFlush({ ...base, entry: { sessionId: 'x', compactionCount: 2, memoryFlushCompactionCount: 2 } })).toMatchObject({ flush: false, reason: 'already flushed in this compaction cycle' });
    expect(shouldFlush({ ...base, entry: { sessionId: 'x', compactionCount: 3, memoryFlushCompactionCount: 2 } }).flush).toBe(true);
    expect(shouldFlush({ ...base, entry: undefined, writable: false })).toMatchObject({ flush: false, reason: 'the state dir is read-only' });
    expect(shouldFlush({ ...base, settings: settings({ memoryFlush: { enabled: false } }), entry: undefined }).flush).toBe(false);
  });
});

describe('flush tools', () => {
  it("today's date follows the user's time zone", () => {
    expect(todayIn(NOW, 'UTC')).toBe('2025-03-02');
    expect(todayIn(NOW, 'Asia/Tokyo')).toBe('2025-03-03');
    expect(todayIn(NOW, 'America/Los_Angeles')).toBe('2025-03-02');
    expect(todayIn(NOW, 'Not/AZone')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('write may only append to memory/<today>.md; any other path is a clear tool error', () => {
    const ws = writeTree(tmpDir(), { 'MEMORY.md': '# Long-term\n', 'memory/2025-03-01.md': 'old\n' });
    const tools = flushToolRunner(ws, '2025-03-02');
    for (const p of ['MEMORY.md', 'memory/2025-03-01.md', '../escape.md', '/etc/passwd', 'memory/2025-03-02.txt', 'notes.md']) {
      const r = tools.run('write', { path: p, content: 'x' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain('only memory/2025-03-02.md');
    }
    expect(fs.readFileSync(path.join(ws, 'MEMORY.md'), 'utf8')).toBe('# Long-term\n');
    expect(fs.readFileSync(path.join(ws, 'memory/2025-03-01.md'), 'utf8')).toBe('old\n');
    expect(tools.run('write', { path: 'memory/2025-03-02.md', content: '- fact one' })).toEqual({ isError: false, text: 'appended 1 line(s) to memory/2025-03-02.md' });
    expect(tools.run('write', { path: path.join(ws, 'memory', '2025-03-02.md'), content: '- fact two' }).isError).toBe(false);
    expect(fs.readFileSync(path.join(ws, 'memory/2025-03-02.md'), 'utf8')).toBe('- fact one\n- fact two\n');
    expect(tools.run('read', { path: '../../etc/passwd' }).isError).toBe(true);
    expect(tools.run('read', { path: 'MEMORY.md' })).toEqual({ isError: false, text: '# Long-term\n' });
    expect(tools.run('bash', { command: 'rm -rf /' }).isError).toBe(true);
  });

  it('refuses a daily note that is a symlink out of the workspace', () => {
    const ws = writeTree(tmpDir(), { 'memory/.keep': '' });
    const outside = path.join(tmpDir(), 'secret.md');
    fs.writeFileSync(outside, 'secret\n');
    fs.symlinkSync(outside, path.join(ws, 'memory', '2025-03-02.md'));
    const r = flushToolRunner(ws, '2025-03-02').run('write', { path: 'memory/2025-03-02.md', content: 'x' });
    expect(r.isError).toBe(true);
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret\n');
  });

  it('appends never overwrite and never duplicate lines already in the file', () => {
    const file = path.join(tmpDir(), 'memory', '2025-03-02.md');
    expect(appendWithoutDuplicates(file, '# 2025-03-02\n\n- Ana prefers tea.\n- Deploy is Friday.')).toEqual({ appended: 3, skipped: 0 });
    fs.appendFileSync(file, '- written by hand, no newline');
    expect(appendWithoutDuplicates(file, '- Deploy is Friday.\n  - Ana prefers tea.  \n- New: port 8787.\n- New: port 8787.')).toEqual({ appended: 1, skipped: 3 });
    expect(fs.readFileSync(file, 'utf8')).toBe('# 2025-03-02\n\n- Ana prefers tea.\n- Deploy is Friday.\n- written by hand, no newline\n- New: port 8787.\n');
    expect(appendWithoutDuplicates(file, '- Deploy is Friday.')).toEqual({ appended: 0, skipped: 1 });
  });
});

describe('flush turn', () => {
  it('NO_REPLY detection is exact and case-insensitive', () => {
    expect(isNoReply('NO_REPLY')).toBe(true);
    expect(isNoReply('  no_reply \n')).toBe(true);
    expect(isNoReply('NO_REPLY, but here is more')).toBe(false);
    expect(isNoReply('Saved. NO_REPLY')).toBe(false);
  });

  it('the model reads, appends, is refused elsewhere, and replies NO_REPLY', async () => {
    const ws = writeTree(tmpDir(), { 'MEMORY.md': '- Ana prefers tea.\n', 'memory/2025-03-02.md': '- Deploy is Friday.\n' });
    const llm = ScriptedLlm.steps(
      () => ({ toolCalls: [{ id: 't1', name: 'read', arguments: { path: 'memory/2025-03-02.md' } }] }),
      () => ({ toolCalls: [{ id: 't2', name: 'write', arguments: { path: 'MEMORY.md', content: '- overwrite attempt' } }] }),
      (req) => {
        const refused = req.messages.at(-1) as { content: { text: string }[] };
        expect(refused.content[0]?.text).toContain('only memory/2025-03-02.md');
        return { toolCalls: [{ id: 't3', name: 'write', arguments: { path: 'memory/2025-03-02.md', content: '- Deploy is Friday.\n- Server port is 8787.' } }] };
      },
      () => ({ text: 'NO_REPLY' }),
    );
    const r = await runFlushTurn({
      llm, messages: [{ role: 'user', content: 'We moved the server to port 8787.' }],
      settings: settings().memoryFlush, workspace: ws, timeZone: 'UTC', now: NOW,
    });
    expect(r).toMatchObject({ date: '2025-03-02', reply: 'NO_REPLY', silent: true, rounds: 4, exhausted: false });
    expect(r.toolCalls.map((c) => [c.name, c.isError])).toEqual([['read', false], ['write', true], ['write', false]]);
    expect(fs.readFileSync(path.join(ws, 'memory/2025-03-02.md'), 'utf8')).toBe('- Deploy is Friday.\n- Server port is 8787.\n');
    expect(fs.readFileSync(path.join(ws, 'MEMORY.md'), 'utf8')).toBe('- Ana prefers tea.\n');
    // the prompts come from the settings with today's date filled in
    expect(llm.requests[0]?.system).toBe('Session nearing compaction. Store durable memories now.');
    expect(llm.requests[0]?.messages.at(-1)?.content).toBe('Write any lasting notes to memory/2025-03-02.md; reply with NO_REPLY.');
    expect(llm.requests[0]?.tools?.map((t) => t.name)).toEqual(['read', 'write']);
  });

  it('stops after maxRounds of tool calls', async () => {
    const ws = tmpDir();
    const llm = ScriptedLlm.steps(() => ({ toolCalls: [{ id: 'r', name: 'read', arguments: { path: 'MEMORY.md' } }] }));
    const r = await runFlushTurn({ llm, messages: [], settings: settings().memoryFlush, workspace: ws, now: NOW, maxRounds: 3 });
    expect(r).toMatchObject({ rounds: 3, exhausted: true });
  });
});

describe('flush once per compaction cycle (sessions.json)', () => {
  it('runs, records memoryFlushCompactionCount, skips until the next compaction, then runs again', async () => {
    const dir = tmpDir();
    const ws = path.join(dir, 'workspace');
    fs.mkdirSync(ws);
    const { file } = makeSession(6, { dir, id: 's1' });
    const index = path.join(dir, 'sessions.json');
    await updateSessionEntry(index, 's1', { compactionCount: 0 }, { key: 'agent:main:s1' });
    const llm = ScriptedLlm.steps(
      () => ({ toolCalls: [{ id: 'w', name: 'write', arguments: { path: 'memory/2025-03-02.md', content: '- remember port 3000' } }] }),
      () => ({ text: 'NO_REPLY' }),
    );
    const base = {
      llm, settings: settings(), contextWindow: 30000, projectedTokens: 29000, transcriptFile: file,
      sessionIndex: { file: index, sessionId: 's1' }, workspace: ws, writable: true, messages: [], timeZone: 'UTC', now: () => NOW,
    };
    const first = await maybeRunMemoryFlush(base);
    expect(first.ran).toBe(true);
    expect(readSessionIndex(index)['agent:main:s1']).toMatchObject({ memoryFlushAt: NOW.getTime(), memoryFlushCompactionCount: 0, compactionCount: 0 });
    const again = await maybeRunMemoryFlush(base);
    expect(again).toMatchObject({ ran: false, decision: { reason: 'already flushed in this compaction cycle' } });
    expect(llm.requests).toHaveLength(2);
    await compact({ file, settings: settings({ keepRecentTokens: 100 }), contextWindowTokens: 30000, sessionIndex: { file: index, sessionId: 's1' } });
    expect(readSessionIndex(index)['agent:main:s1']?.compactionCount).toBe(1);
    const third = await maybeRunMemoryFlush(base);
    expect(third.ran).toBe(true);
    expect(readSessionIndex(index)['agent:main:s1']?.memoryFlushCompactionCount).toBe(1);
    expect(fs.readFileSync(path.join(ws, 'memory/2025-03-02.md'), 'utf8')).toBe('- remember port 3000\n');
  });

  it('skips a read-only state dir without calling the model', async () => {
    const dir = tmpDir();
    const { file } = makeSession(1, { dir, id: 's1' });
    const llm = ScriptedLlm.steps(() => ({ text: 'NO_REPLY' }));
    const r = await maybeRunMemoryFlush({
      llm, settings: settings(), contextWindow: 30000, projectedTokens: 99999, transcriptFile: file,
      sessionIndex: { file: path.join(dir, 'sessions.json'), sessionId: 's1' }, workspace: dir, writable: false, messages: [],
    });
    expect(r.ran).toBe(false);
    expect(llm.requests).toHaveLength(0);
    expect(fs.existsSync(path.join(dir, 'sessions.json'))).toBe(false);
  });
});
