/**
 * Compaction without a model carries the previous summary forward (issue 10 item 2): on the
 * demo's session with two earlier summaries, the extract keeps their Decisions, TODOs,
 * Constraints and identifiers, merged with the new part's and deduplicated, and it follows
 * or visibly refuses the user's instructions — in the summary, the entry and the dry run.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compact } from '../../electron/engine/compaction/compact';
import { buildExtract } from '../../electron/engine/compaction/extract';
import { parseSummary } from '../../electron/engine/compaction/sections';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { readTranscript } from '../../electron/engine/transcript/read';
import { buildContext } from '../../electron/engine/transcript/context';
import { openSessionFile } from '../../electron/engine/transcript/session-file';
import { runCairn } from '../helpers/cli';
import { seedSessions } from '../helpers/seed-sessions';
import { tmpDir } from '../helpers/tmp';

const settings = CompactionSchema.parse({});
const NOW = new Date('2025-03-12T12:00:00Z');

function demo() {
  const stateDir = path.join(tmpDir(), 'state');
  const seeded = seedSessions(stateDir, { now: NOW });
  return { stateDir, file: seeded.compacted.file, sessionId: seeded.compacted.sessionId };
}

/** How often `text` occurs in `s`. */
const count = (s: string, text: string) => s.split(text).length - 1;

describe('the extract carries the previous summary forward', () => {
  it('on the demo session: earlier decisions, TODOs, constraints and identifiers survive, once each', async () => {
    const { file } = demo();
    const r = await compact({ file, settings, contextWindowTokens: 200_000, now: () => NOW });
    expect(r.compacted).toBe(true);
    if (!r.compacted) return;
    const p = parseSummary(r.summary);
    expect(p.sections.decisions).toContain('Move billing from Postgres 13.14 to 16.2 (docker-compose `postgres:16.2`).');
    expect(p.sections.decisions).toContain('Settlement queries order explicitly (`ORDER BY created_at, id`): Postgres 16 does not keep the old `DISTINCT` order.');
    expect(p.sections.todos).toContain('Review every migration for lock time (> 5 s is a blocker).');
    expect(p.sections.constraints).toContain('Use the staging snapshot `snap-2025-03-10`; never touch production.');
    expect(p.sections.constraints).toContain('Keep fixes minimal.');
    // the new part is there too, after the carried items
    expect(p.sections.asks.some((a) => a.startsWith('Review every migration in `migrations/`'))).toBe(true);
    expect(r.summary).toContain('tests/invoices/service.test.ts');
    for (const id of ['migrations/0041_audit_log_aclitem.sql', 'src/billing/settle.ts', 'snap-2025-03-10']) expect(r.summary).toContain(id);
    // deduplicated: the decision both earlier summaries hold appears once
    expect(count(r.summary, 'Move billing from Postgres 13.14 to 16.2')).toBe(1);
    expect(count(r.summary, 'never touch production')).toBe(1);
    // nothing is "(none)" that the previous summary had, and no verbatim copy of it is pasted
    expect(r.summary).not.toMatch(/## (Decisions|Open TODOs|Constraints\/Rules)\n- \(none\)/);
    expect(r.summary).not.toContain('## Previous summary');
    expect(r.summary).toContain('The previous summary is carried forward');
    // the context the model gets next starts with it
    const ctx = buildContext(readTranscript(file));
    expect(JSON.stringify(ctx.messages[0])).toContain('never touch production');
  });

  it('survives a chain: an extract of an extract still holds the first summary’s constraint', async () => {
    const { file } = demo();
    const first = await compact({ file, settings, contextWindowTokens: 200_000, all: true, now: () => NOW });
    expect(first.compacted).toBe(true);
    const s = openSessionFile(file);
    s.appendMessage({ role: 'user', content: 'Now check the API on localhost:8443 and decide about retries.' });
    s.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'We decided to retry three times with backoff.' }], provider: 'x', model: 'y', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }, stopReason: 'stop', timestamp: 1 });
    const second = await compact({ file, settings, contextWindowTokens: 200_000, all: true, now: () => NOW });
    expect(second.compacted).toBe(true);
    if (!second.compacted) return;
    const p = parseSummary(second.summary);
    expect(p.sections.constraints).toContain('Use the staging snapshot `snap-2025-03-10`; never touch production.');
    expect(p.sections.decisions).toContain('Move billing from Postgres 13.14 to 16.2 (docker-compose `postgres:16.2`).');
    expect(p.sections.decisions).toContain('We decided to retry three times with backoff.');
    expect(second.summary).toContain('localhost:8443');
    expect(count(second.summary, 'never touch production')).toBe(1);
    expect(count(second.summary, '[Extract:')).toBe(1);
  });
});

describe('instructions to an extract: followed where it can, refused visibly otherwise', () => {
  const messages = [
    { role: 'user' as const, content: 'Bring the stack up: db maps 5432:5432, the api listens with --port 8080 and the cache on redis:6379. Keep the database schema untouched.' },
    { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'The database schema stays as it is; the api talks to db:5432.' }], provider: 'x', model: 'y', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 }, stopReason: 'stop' as const, timestamp: 1 },
  ];

  it('"keep every port number" finds the ports a plain extract leaves out and lists them first', () => {
    const plain = buildExtract({ messages, tokens: 50, reason: 'no model configured' });
    expect(parseSummary(plain).sections.identifiers).not.toContain('5432:5432');
    const out = buildExtract({ messages, tokens: 50, reason: 'no model configured', instructions: ['keep every port number'] });
    const ids = parseSummary(out).sections.identifiers;
    expect(ids.slice(0, 4)).toEqual(expect.arrayContaining(['5432:5432', '--port 8080', 'redis:6379', 'db:5432']));
    expect(out).toContain('[Instructions followed: every port number kept, listed first under Exact identifiers.]');
  });

  it('"focus on the database" gets a Focus section; "write it in French" is refused in the text', () => {
    const out = buildExtract({ messages, tokens: 50, reason: 'no model configured', instructions: [undefined, 'focus on the database, and write it in French'] });
    expect(out).toMatch(/## Focus: database\n- Bring the stack up.*\n- The database schema stays as it is/);
    expect(out).toContain('not followed (an extract copies lines, it cannot rewrite them without a model): "write it in French"');
  });

  it('the entry records the note and `cairn compact --dry-run` says what the extract would do', async () => {
    const { stateDir, file, sessionId } = demo();
    const dry = await runCairn(['compact', sessionId, '--dry-run', '--instructions', 'keep every port number; answer in French', '--state-dir', stateDir]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("extract: the extract carries the previous summary forward (its sections merged with the new part's). Instructions followed: every port number kept");
    expect(dry.stdout).toContain('not followed (an extract copies lines, it cannot rewrite them without a model): "answer in French"');
    const r = await compact({ file, settings, contextWindowTokens: 200_000, instructions: 'keep every port number; answer in French', now: () => NOW });
    expect(r.compacted && r.entry.details).toMatchObject({ extract: true, instructions: 'keep every port number; answer in French', instructionsNote: expect.stringContaining('"answer in French"') });
  });
});
