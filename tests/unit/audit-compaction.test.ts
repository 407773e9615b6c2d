/**
 * The compaction audit on hand-made transcripts (issue 32): a summary that keeps every
 * identifier loses nothing; one that drops two names both with where they were said (and the
 * citation opens there); a flush that wrote one of them keeps that one (and a recorded "did
 * not run" keeps none); a summary of a summary that drops what the first carried names it;
 * an unanswered ask the summary dropped is named; `cairn audit --json` gives it to scripts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { sessionCitation } from '../../electron/engine/sessions/citation';
import { compact } from '../../electron/engine/compaction/compact';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { addTurn, makeSession } from '../helpers/sessions';
import type { SessionAudit } from '../../shared/types/audit';
import { tmpDir, writeTree } from '../helpers/tmp';

const SID = 'audit-1';
let n = 0;
const id = () => (++n).toString(16).padStart(8, '0');

interface Line {
  type: string;
  [k: string]: unknown;
}

/** A transcript of `lines` (ids, parents and timestamps filled in) in a fresh state dir. */
function stateWith(lines: Line[], files: Record<string, string> = {}): { stateDir: string; ids: string[] } {
  const stateDir = tmpDir('cairn-audit-');
  const engine = createEngine({ stateDir });
  void engine.dispose();
  let parent: string | null = null;
  const ids: string[] = [];
  const out = [JSON.stringify({ type: 'session', version: 3, id: SID, timestamp: '2026-11-03T09:00:00.000Z', cwd: stateDir })];
  lines.forEach((l, i) => {
    const eid = (l.id as string | undefined) ?? id();
    ids.push(eid);
    out.push(JSON.stringify({ id: eid, parentId: parent, timestamp: `2026-11-03T10:${String(i).padStart(2, '0')}:00.000Z`, ...l }));
    parent = eid;
  });
  writeTree(stateDir, { [`agents/main/sessions/${SID}.jsonl`]: `${out.join('\n')}\n`, ...files });
  return { stateDir, ids };
}

const user = (text: string): Line => ({ type: 'message', message: { role: 'user', content: text } });
const assistant = (text: string): Line => ({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text }] } });
const compaction = (summary: string, firstKeptEntryId: string, idv?: string): Line => ({ type: 'compaction', summary, firstKeptEntryId, tokensBefore: 12_000, tokensAfter: 3_000, ...(idv ? { id: idv } : {}) });

/** Two turns that name ZX-4471, db/pool.ts and 10.0.0.7:5432, then one kept turn. */
function talk(): Line[] {
  return [
    user('The ticket is ZX-4471: the pool in db/pool.ts leaks.'),
    assistant('Understood. The primary runs at 10.0.0.7:5432, so I will look there.'),
    { ...user('Thanks, carry on.'), id: 'keep0001' },
    assistant('Carrying on.'),
  ];
}

async function audit(stateDir: string): Promise<SessionAudit> {
  const engine = createEngine({ stateDir });
  try {
    return await createDirectClient(engine)['audit.session']({ sessionId: SID });
  } finally {
    await engine.dispose();
  }
}

describe('compaction audit', () => {
  it('a summary that keeps every identifier loses nothing', async () => {
    const { stateDir } = stateWith([...talk(), compaction('## Decisions\n- Look at ZX-4471 in db/pool.ts on 10.0.0.7:5432 (pool leaks).', 'keep0001')]);
    const a = await audit(stateDir);
    expect(a.compactions).toHaveLength(1);
    expect(a.compactions[0]?.lost.identifiers).toEqual([]);
    expect(a.summary).toBe('0 of 1 compaction lost identifiers.');
  });

  it('a summary that drops two names both with where they were said, and the citation opens there', async () => {
    const { stateDir, ids } = stateWith([...talk(), compaction('## Decisions\n- Look at the primary 10.0.0.7:5432 for the pool leak.', 'keep0001')]);
    const a = await audit(stateDir);
    const c = a.compactions[0]!;
    expect(c.lost.identifiers.map((i) => i.value)).toEqual(['ZX-4471', 'db/pool.ts']);
    const zx = c.lost.identifiers[0]!;
    expect(zx.at).toMatchObject({ entryId: ids[0], line: 2, cite: `sessions/${SID}.jsonl#L2`, role: 'user' });
    expect(zx.at.excerpt).toContain('The ticket is ZX-4471');
    expect(a.summary).toBe('1 of 1 compaction lost identifiers; the last one lost `ZX-4471`, `db/pool.ts`.');
    const engine = createEngine({ stateDir });
    try {
      expect(sessionCitation(engine.ctx, 'main', `sessions/${SID}.jsonl`, zx.at.line, zx.at.line).text).toContain('ZX-4471');
    } finally {
      await engine.dispose();
    }
  });

  it('a flush that wrote one of them keeps that one; a recorded "did not run" keeps none', async () => {
    const summary = '## Decisions\n- Look at the primary 10.0.0.7:5432 for the pool leak.';
    const { stateDir } = stateWith([...talk(), compaction(summary, 'keep0001')], { 'workspace/memory/2026-11-03.md': '# 2026-11-03\n\n- Pool leak tracked as ZX-4471.\n' });
    const c = (await audit(stateDir)).compactions[0]!;
    expect(c.lost.identifiers.map((i) => i.value)).toEqual(['db/pool.ts']);
    expect(c.flush.ran).toBeNull();
    expect(c.flush.wrote).toEqual([{ path: 'memory/2026-11-03.md', line: 3, text: '- Pool leak tracked as ZX-4471.' }]);

    // The session row's memoryFlushAt inside the window says when the flush ran.
    const sessionsJson = path.join(stateDir, 'agents', 'main', 'sessions', 'sessions.json');
    fs.writeFileSync(sessionsJson, JSON.stringify({ 'agent:main:main': { sessionId: SID, updatedAt: Date.parse('2026-11-03T10:05:00Z'), memoryFlushAt: Date.parse('2026-11-03T10:03:30Z') } }));
    const flushed = (await audit(stateDir)).compactions[0]!;
    expect(flushed.flush).toMatchObject({ ran: true, at: '2026-11-03T10:03:30.000Z', evidence: 'memoryFlushAt of the session row' });
    expect(flushed.lost.identifiers.map((i) => i.value)).toEqual(['db/pool.ts']);

    // The OpenClaw plugin's record says no flush ran before this compaction: the note is not its work.
    const engine = createEngine({ stateDir });
    const settingsDir = engine.ctx.state().settingsDir;
    await engine.dispose();
    fs.writeFileSync(path.join(settingsDir, 'openclaw-compactions.jsonl'), `${JSON.stringify({ ts: Date.parse('2026-11-03T10:04:00Z'), agentId: 'main', sessionId: SID, tokensBefore: 12_000, tokensAfter: 3_000, flushRan: false, flushAt: null })}\n`);
    const again = (await audit(stateDir)).compactions[0]!;
    expect(again.flush).toMatchObject({ ran: false, wrote: [] });
    expect(again.lost.identifiers.map((i) => i.value)).toEqual(['ZX-4471', 'db/pool.ts']);
  });

  it('reads the compacted part along the compaction\'s own branch, not another branch of the file', async () => {
    const { stateDir } = stateWith([
      { ...user('Start: the ticket is ZX-4471.'), id: 'r0000001' },
      { ...assistant('Noted.'), id: 'r0000002' },
      { ...user('On another branch we talk about QQ-9999.'), id: 'a0000001' },
      { ...assistant('QQ-9999 it is.'), id: 'a0000002' },
      { ...user('Back up: carry on.'), id: 'b0000001', parentId: 'r0000002' },
      { ...assistant('Carrying on.'), id: 'b0000002' },
      compaction('## Decisions\n- Carry on.', 'b0000001'),
    ]);
    const c = (await audit(stateDir)).compactions[0]!;
    expect(c.lost.identifiers.map((i) => i.value)).toEqual(['ZX-4471']);
    expect(c.compacted).toMatchObject({ fromLine: 2, toLine: 3, messages: 2 });
  });

  it('never lists a secret the compacted part held', async () => {
    const { stateDir } = stateWith([
      user('Use the key sk-proj-AbCdEf0123456789XyZ for the ZX-4471 job.'),
      assistant('Noted.'),
      { ...user('Go.'), id: 'keep0001' },
      compaction('## Decisions\n- Run the ZX-4471 job.', 'keep0001'),
    ]);
    const c = (await audit(stateDir)).compactions[0]!;
    expect(JSON.stringify(c)).not.toContain('sk-proj-AbCdEf0123456789XyZ');
    expect(c.lost.identifiers).toEqual([]);
  });

  it('a summary of a summary that drops what the first carried names it, said in the first summary', async () => {
    const first = '## Decisions\n- Fix ZX-4471 in db/pool.ts.\n\n## Exact identifiers\n- `ZX-4471`\n- `db/pool.ts`';
    const { stateDir, ids } = stateWith([
      ...talk(),
      compaction(first, 'keep0001', 'comp0001'),
      { ...user('Also bump the image to v2.4.1.'), id: 'keep0002' },
      assistant('Bumped to v2.4.1.'),
      compaction('## Decisions\n- Bump the image to v2.4.1.\n\n## Exact identifiers\n- `db/pool.ts`', 'keep0002'),
    ]);
    const a = await audit(stateDir);
    expect(a.compactions).toHaveLength(2);
    const second = a.compactions[1]!;
    expect(second.summaryOf).toMatchObject({ id: 'comp0001', ordinal: 1, cite: `sessions/${SID}.jsonl#L6` });
    expect(second.lost.identifiers.map((i) => i.value)).toEqual(['ZX-4471']);
    expect(second.lost.identifiers[0]?.at).toMatchObject({ entryId: ids[4], role: 'summary', line: 6 });
    // What the first summary's Decisions carried and the second dropped is lost too.
    expect(second.lost.decisions.map((d) => d.text)).toEqual(['Fix ZX-4471 in db/pool.ts.']);
  });

  it('names an unanswered ask the summary dropped, and cairn audit --json gives it with the flush and summaryOf', async () => {
    const [ask0, answer0, ...rest] = talk();
    const { stateDir } = stateWith([
      ask0!,
      answer0!,
      user('Which replica should take the read traffic tomorrow?'),
      ...rest,
      compaction('## Decisions\n- ZX-4471: db/pool.ts leaks; primary 10.0.0.7:5432.', 'keep0001'),
    ]);
    let stdout = '';
    const code = await runCli(['audit', '--session', SID, '--json', '--state-dir', stateDir], createRuntime({ stdout: (s) => (stdout += s), stderr: () => {}, isTTY: false }));
    expect(code).toBe(0);
    const a = JSON.parse(stdout) as SessionAudit;
    const c = a.compactions[0]!;
    expect(c.lost.asks.map((x) => x.text)).toEqual(['Which replica should take the read traffic tomorrow?']);
    expect(c.lost.asks[0]?.at.cite).toBe(`sessions/${SID}.jsonl#L4`);
    expect(c).toHaveProperty('flush.ran');
    expect(c).toHaveProperty('flush.wrote');
    expect(c.summaryOf).toBeUndefined();
    expect(c.tokensBefore).toBe(12_000);
  });

  it('names a TODO written mid-line that the summary dropped, though it kept the sentence before it', async () => {
    const [ask0, answer0, ...rest] = talk();
    const { stateDir } = stateWith([
      ask0!,
      answer0!,
      user('The deploy failed again, the ticket is OPS-2231. TODO: get the rollback approved.'),
      assistant('Noted.'),
      ...rest,
      compaction('## Decisions\n- ZX-4471: db/pool.ts leaks; primary 10.0.0.7:5432. The deploy failed again (ticket OPS-2231).', 'keep0001'),
    ]);
    const c = (await audit(stateDir)).compactions[0]!;
    expect(c.lost.identifiers).toEqual([]);
    expect(c.lost.todos.map((x) => x.text)).toEqual(['TODO: get the rollback approved.']);
    expect(c.lost.todos[0]?.at.cite).toBe(`sessions/${SID}.jsonl#L4`);
  });

  it("Cairn's own compactions with the deterministic extract, twice (a summary of a summary), lose no identifier", async () => {
    const stateDir = tmpDir('cairn-audit-own-');
    const engine = createEngine({ stateDir });
    const sessionsDir = engine.ctx.paths().sessionsDir;
    await engine.dispose();
    const { file, session } = makeSession(12, { dir: sessionsDir, id: 'own-1', resultChars: 800 });
    const settings = CompactionSchema.parse({ keepRecentTokens: 600 });
    expect((await compact({ file, settings, contextWindowTokens: 100_000, trigger: 'manual' })).compacted).toBe(true);
    // Re-read, as the next chat turn does: the leaf is the compaction just written.
    session.reload();
    for (let i = 12; i < 20; i++) addTurn(session, i, 800);
    expect((await compact({ file, settings, contextWindowTokens: 100_000, trigger: 'manual' })).compacted).toBe(true);
    const e2 = createEngine({ stateDir });
    try {
      const a = await createDirectClient(e2)['audit.session']({ sessionId: 'own-1' });
      expect(a.compactions.map((c) => [c.origin, c.lostCounts.identifiers, c.lostCounts.asks, c.lostCounts.todos, c.lostCounts.decisions])).toEqual([
        ['Cairn (extract)', 0, 0, 0, 0],
        ['Cairn (extract)', 0, 0, 0, 0],
      ]);
      expect(a.compactions[1]?.summaryOf?.ordinal).toBe(1);
    } finally {
      await e2.dispose();
    }
  });
});
