/** `cairn sessions list|show`, `cairn prune`, `cairn compact` and the sessions channels behind them. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import type { EngineDeps } from '../../electron/engine/core/context';
import { readTranscript } from '../../electron/engine/transcript/read';
import { readSessionIndex } from '../../electron/engine/transcript/sessions-index';
import { listCheckpoints } from '../../electron/engine/compaction/write';
import { CairnError } from '../../shared/client';
import { copyFixture, FIXTURE_SESSION_ID as SID } from '../helpers/fixtures';
import { makeSession } from '../helpers/sessions';
import { SummarizerLLM } from '../helpers/test-llms';
import { tmpDir } from '../helpers/tmp';
import { localDateTime } from '../../shared/text/local-time';
import { freezeTree, snapshotTree } from '../helpers/tree-snapshot';

async function cli(args: string[], deps: EngineDeps = {}) {
  let stdout = '';
  let stderr = '';
  const rt = createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false, deps });
  const code = await runCli(args, rt);
  return { code, stdout, stderr };
}

describe('cairn sessions', () => {
  it('list shows id, messages, tokens, compactions and last activity; --json has the same', async () => {
    const { stateDir } = copyFixture();
    const r = await cli(['sessions', 'list', '--state-dir', stateDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^SESSION\s+MESSAGES\s+TOKENS\s+COMPACTIONS\s+LAST ACTIVITY\s+KEY/);
    // The last entry is at 10:02:20 UTC; the list says it in the machine's zone (see the next test).
    expect(r.stdout).toContain(`${SID}        15  2628/200.0k            1  ${localDateTime('2025-03-02T10:02:20.000Z')}  agent:main:main`);
    const j = JSON.parse((await cli(['sessions', 'list', '--state-dir', stateDir, '--json'])).stdout);
    expect(j.sessions).toHaveLength(1);
    expect(j.sessions[0]).toMatchObject({ id: SID, key: 'agent:main:main', messages: 15, compactions: 1, estimatedTokens: 2628, contextWindow: 200000, malformed: 1, name: 'Fix server port' });
  });

  it("list says the last activity in the machine's time zone, not UTC's read as local", async () => {
    const { stateDir } = copyFixture();
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Chatham'; // UTC+13:45 in March
    try {
      const r = await cli(['sessions', 'list', '--state-dir', stateDir]);
      expect(r.stdout).toContain('  2025-03-02 23:47:20  agent:main:main');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('show lists entries with type, role, tokens and compaction summaries; reports the malformed line', async () => {
    const { stateDir } = copyFixture();
    const r = await cli(['sessions', 'show', SID, '--state-dir', stateDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/L {4}6 a0000005 message\/user\s+33 tok ctx\s+58 {2}Please look at src\/server.ts/);
    expect(r.stdout).toContain('├ firstKeptEntryId a000000b · tokensBefore 9120');
    expect(r.stdout).toContain('│ - Server port is 8787 on 127.0.0.1 (was 3000).');
    expect(r.stderr).toMatch(/5f0c2a1e-7b3d-4c8e-9a61-2d4f8b0e1c37\.jsonl:18: /);
    const j = JSON.parse((await cli(['sessions', 'show', SID, '--state-dir', stateDir, '--json'])).stdout);
    expect(j.total).toBe(24);
    expect(j.entries).toHaveLength(24);
    const comp = j.entries.find((e: { type: string }) => e.type === 'compaction');
    expect(comp.compaction).toMatchObject({ firstKeptEntryId: 'a000000b', tokensBefore: 9120, extract: false });
    expect(j.entries.find((e: { id: string }) => e.id === 'a0000011').fields).toEqual({ payload: { nested: [1, 2, 3], note: 'spacing and key order are kept' }, zz: true });
  });

  it('an unknown session is exit 1 with a clear message; a bad id is a usage error', async () => {
    const { stateDir } = copyFixture();
    const r = await cli(['sessions', 'show', 'nope', '--state-dir', stateDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no transcript for session nope');
    const bad = await cli(['sessions', 'show', '../../etc/passwd', '--state-dir', stateDir]);
    expect(bad.code).toBe(2);
  });
});

describe('cairn prune', () => {
  it('prints the diff and never writes', async () => {
    // Writable, so a write would be allowed; the sessions dir (bytes, mtimes, files) must not change.
    const { stateDir, sessionsDir } = copyFixture({ writable: true });
    const before = freezeTree(sessionsDir);
    const r = await cli(['prune', SID, '--state-dir', stateDir, '--context-window', '300', '--now', '2025-03-02T11:00:00Z', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.diff.gate).toMatchObject({ open: true, reason: 'ttl-expired', lastCallAt: 1740909720000 });
    expect(j.diff.charWindow).toBe(1200);
    expect(j.results.map((x: { entryId: string; action: string; keptBecause: string }) => [x.entryId, x.action, x.keptBecause])).toEqual([
      ['a0000010', 'kept', 'recent'],
      ['a0000014', 'kept', 'recent'],
    ]);
    const early = JSON.parse((await cli(['prune', SID, '--state-dir', stateDir, '--now', '2025-03-02T10:03:00Z', '--json'])).stdout);
    expect(early.diff.gate.reason).toBe('ttl-not-expired');
    expect(snapshotTree(sessionsDir)).toEqual(before);
    const bad = await cli(['prune', SID, '--state-dir', stateDir, '--context-window', 'lots']);
    expect(bad.code).toBe(2);
  });

  it('prune.preview shows each tool result on disk beside its pruned text', async () => {
    const dir = tmpDir();
    const engine = createEngine({ stateDir: dir });
    const sessionsDir = path.join(dir, 'agents', 'main', 'sessions');
    const { session } = makeSession(8, { dir: sessionsDir, id: 's1', resultChars: 9000 });
    session.appendCustom('openclaw.cache-ttl', { timestamp: Date.parse('2025-03-02T10:00:00Z'), provider: 'test', modelId: 'test' });
    const api = createDirectClient(engine);
    const r = await api['prune.preview']({ sessionId: 's1', contextWindowTokens: 20000, now: '2025-03-02T11:00:00Z', overrides: { keepLastAssistants: 2, minPrunableToolChars: 0 } });
    const trimmed = r.results.find((x) => x.action === 'soft-trimmed');
    // Excerpts with the full lengths; the whole pruned text through prune.text.
    expect(trimmed?.beforeLength).toBe(9000 + '// mod0\n'.length);
    const after = await api['prune.text']({ sessionId: 's1', contextWindowTokens: 20000, now: '2025-03-02T11:00:00Z', overrides: { keepLastAssistants: 2, minPrunableToolChars: 0 }, entryId: trimmed?.entryId as string, side: 'after' });
    expect(after.text).toMatch(/\[Tool result trimmed: kept first 1500 chars and last 1500 chars of 9008 chars\.\]$/);
    expect(r.settings).toMatchObject({ keepLastAssistants: 2, ttl: '5m' });
    await expect(api['prune.preview']({ sessionId: 's1', overrides: { softTrimRatio: 3 } })).rejects.toMatchObject({ code: 'bad_request' });
    await engine.dispose();
  });
});

describe('cairn compact', () => {
  it('--dry-run prints the plan and the exact prompt without a model and without writing', async () => {
    const { stateDir, transcript } = copyFixture();
    fs.writeFileSync(path.join(stateDir, 'cairn.json'), JSON.stringify({ agents: { defaults: { compaction: { keepRecentTokens: 30 } } } }));
    const before = fs.readFileSync(transcript);
    const r = await cli(['compact', SID, '--state-dir', stateDir, '--dry-run', '--instructions', 'keep the port decision']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('summariser: none — the deterministic extract would be written');
    expect(r.stdout).toContain('--- system prompt ---\nYou are a context summarisation assistant.');
    expect(r.stdout).toContain('Additional focus for this summary:\nkeep the port decision');
    const j = JSON.parse((await cli(['compact', SID, '--state-dir', stateDir, '--dry-run', '--json'])).stdout);
    expect(j).toMatchObject({ possible: true, previousCompactionId: 'a000000d', mode: 'single' });
    expect(j.summarizeEntryIds[0]).toBe('a000000b');
    expect(fs.readFileSync(transcript).equals(before)).toBe(true);
  });

  it('refuses to write into a read-only (OpenClaw) state dir', async () => {
    const { stateDir, transcript } = copyFixture();
    const before = fs.readFileSync(transcript);
    const r = await cli(['compact', SID, '--state-dir', stateDir, '--all']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('read-only');
    expect(fs.readFileSync(transcript).equals(before)).toBe(true);
  });

  it('runs with the injected model, emits progress with the opId, and updates sessions.json', async () => {
    const { stateDir, transcript, sessionsDir } = copyFixture({ writable: true });
    const llm = new SummarizerLLM();
    const engine = createEngine({ stateDir, deps: { createLlm: () => llm, now: () => new Date('2025-03-02T12:00:00Z') } });
    const api = createDirectClient(engine);
    const progress: string[] = [];
    api.on('compact.progress', (p) => progress.push(`${p.opId}:${p.phase}`));
    const r = await api['compact.run']({ sessionId: SID, all: true, instructions: 'focus on ports' }, { opId: 'op-1' });
    expect(r).toMatchObject({ compacted: true, extract: false, modelCalls: 1 });
    expect(progress).toEqual(expect.arrayContaining(['op-1:plan', 'op-1:summarize', 'op-1:write', 'op-1:done']));
    expect(String(llm.calls[0]?.messages[0]?.content)).toContain('focus on ports');
    const t = readTranscript(transcript);
    expect(t.entries.at(-1)).toMatchObject({ type: 'compaction', id: r.entryId, firstKeptEntryId: r.entryId });
    expect(readSessionIndex(path.join(sessionsDir, 'sessions.json'))['agent:main:main']).toMatchObject({ compactionCount: 2, updatedAt: Date.parse('2025-03-02T12:00:00Z') });
    expect(r.checkpoint && fs.existsSync(path.join(sessionsDir, r.checkpoint))).toBe(true);
    // the checkpoint is not listed as a session
    expect((await api['sessions.list']({})).sessions.map((s) => s.id)).toEqual([SID]);
    await engine.dispose();
  });

  it('without a model the CLI writes the deterministic extract', async () => {
    const { stateDir, transcript } = copyFixture({ writable: true });
    const r = await cli(['compact', SID, '--state-dir', stateDir, '--all', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ compacted: true, extract: true });
    expect(j.summary).toContain('127.0.0.1:8787');
    expect(readTranscript(transcript).entries.at(-1)?.details).toMatchObject({ extract: true, trigger: 'manual', keptNothing: true });
  });

  it('a compact.run cancelled while the model is summarising leaves the file byte-identical', async () => {
    const { stateDir, transcript } = copyFixture({ writable: true });
    const before = fs.readFileSync(transcript);
    // The model holds the call until aborted; cancel once the request has provably reached it.
    const llm = new SummarizerLLM(100_000, { hold: true });
    const engine = createEngine({ stateDir, deps: { createLlm: () => llm } });
    const api = createDirectClient(engine);
    const ac = new AbortController();
    const p = api['compact.run']({ sessionId: SID, all: true }, { signal: ac.signal });
    const req = await llm.reached;
    expect(String(req.messages[0]?.content)).toContain('127.0.0.1:8787');
    ac.abort();
    await expect(p).rejects.toBeInstanceOf(CairnError);
    await expect(p).rejects.toMatchObject({ code: 'cancelled' });
    expect(fs.readFileSync(transcript).equals(before)).toBe(true);
    expect(listCheckpoints(transcript)).toEqual([]);
    await engine.dispose();
  });
});

describe('sessions.entries paging', () => {
  it('pages a 10,000-entry session with per-entry tokens and running context tokens', async () => {
    const dir = tmpDir();
    const engine = createEngine({ stateDir: dir });
    const sessionsDir = path.join(dir, 'agents', 'main', 'sessions');
    makeSession(2500, { dir: sessionsDir, id: 'big', resultChars: 40 });
    const api = createDirectClient(engine);
    const page = await api['sessions.entries']({ sessionId: 'big', offset: 9990, limit: 50 });
    expect(page.total).toBe(10000);
    expect(page.entries).toHaveLength(10);
    expect(page.entries[0]?.index).toBe(9990);
    const last = page.entries.at(-1);
    expect(last?.contextTokens).toBe(page.contextTokens);
    const first = await api['sessions.entries']({ sessionId: 'big', offset: 0, limit: 3 });
    expect(first.entries.map((e) => e.role)).toEqual(['user', 'assistant', 'toolResult']);
    expect(first.entries[1]?.contextTokens).toBe((first.entries[0]?.tokens ?? 0) + (first.entries[1]?.tokens ?? 0));
    expect(first.entries[1]?.message?.role).toBe('assistant');
    await engine.dispose();
  });
});
