/**
 * Seed data for the Sessions pages, the e2e suite, the perf bench and `npm run demo`:
 * realistic OpenClaw/pi-format transcripts (SPEC §1.1) and their `sessions.json`, written
 * byte-for-byte the way OpenClaw writes them (see seed-writer.ts).
 *
 * - `seedSessions(stateDir, {now})` — four sessions: a long one with two compactions (the
 *   second summarising the first) whose recent part holds enough tool output for pruning to
 *   both soft-trim and hard-clear under the default settings, a research session with
 *   thinking, fetched pages and a pasted image, a one-question session and a planning
 *   session that writes daily notes.
 * - `seedLargeSession(stateDir, entries)` — one session of exactly `entries` entries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TranscriptBuilder, seedUuid } from './seed-writer';
import { accessLog, chartPngBase64, migrationSql, schemaDump, sourceFile, testLog, webPage } from './seed-text';
import { addIndexEntry, compactionSummaries, writeMarker, type SeedAccess } from './seed-index';

export type { SeedAccess } from './seed-index';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

export interface SeedOptions {
  /** The clock the seed is relative to (last activity is minutes to days before it). */
  now?: Date;
  agentId?: string;
  /**
   * `cairn` (default): mark the dir as created by Cairn, writable. `read-only`: mark it as
   * foreign and read-only. `none`: write no marker (Cairn then decides when it opens it).
   */
  access?: SeedAccess;
}

export interface SeededSession {
  key: string;
  sessionId: string;
  file: string;
  title: string;
  entries: number;
}

export interface SeededSessions {
  stateDir: string;
  sessionsDir: string;
  sessions: SeededSession[];
  /** The session with two compaction entries (and prunable tool output). */
  compacted: SeededSession;
}

function sessionsDirOf(stateDir: string, agentId: string): string {
  return path.join(stateDir, 'agents', agentId, 'sessions');
}

/** Session A: a Postgres migration with two compactions and a large, prunable recent part. */
function billingSession(start: number, end: number): { b: TranscriptBuilder; title: string } {
  const b = new TranscriptBuilder(seedUuid(101), start, 101, '/home/ana/src/billing');
  b.modelChange();
  b.thinkingLevel('medium');
  b.entry('session_info', { name: 'Postgres 16 migration (billing)' }, 100);
  const [s1, s2] = compactionSummaries();
  b.user('We need to move the billing service from Postgres 13 to 16. Start by reading `src/db/pool.ts` and `docker-compose.yml`, then propose a plan.');
  b.toolTurn('read', { path: 'src/db/pool.ts' }, sourceFile('src/db/pool.ts', 48), {
    thinking: 'Start with the connection pool: version-specific settings live there.',
    text: 'Reading the pool first.',
    details: { lines: 52, truncated: false },
  });
  b.toolTurn('read', { path: 'docker-compose.yml' }, 'services:\n  db:\n    image: postgres:13.14\n    ports: ["5432:5432"]\n    environment:\n      POSTGRES_DB: billing\n  api:\n    build: .\n    depends_on: [db]\n', { details: { lines: 9 } });
  // The exploration that filled the window before the first compaction.
  b.toolTurn('bash', { command: 'pg_dump --schema-only billing_prod_snapshot' }, schemaDump(330_000, 21), { text: 'Dumping the current schema to see what the upgrade touches.', details: { exitCode: 0 } });
  b.toolTurn('bash', { command: 'npm test 2>&1' }, testLog(2_600, 23), { details: { exitCode: 0, durationMs: 88_000 }, runMs: 89_000 });
  b.toolTurn('read', { path: '/var/log/postgresql/postgresql-13-main.log' }, accessLog(900, 27), { details: { lines: 900 } });
  b.cacheTtl();
  b.assistant([{ type: 'text', text: '## Plan\n\n1. Bump `postgres:13.14` → `postgres:16.2` in `docker-compose.yml`.\n2. Run `pg_upgrade --check` against a staging snapshot.\n3. Review every migration for lock time (> 5 s is a blocker).\n4. Switch `statement_timeout` to the role level.\n\nShall I start with step 2?' }]);
  const keep1 = b.user('Yes. Use the snapshot `snap-2025-03-10` and note anything that needs a decision.', 20 * MIN);
  b.toolTurn('bash', { command: 'pg_upgrade --check -b /usr/lib/postgresql/13/bin -B /usr/lib/postgresql/16/bin -d /srv/snap-2025-03-10' }, 'Performing Consistency Checks\n-----------------------------\nChecking cluster versions                                   ok\nChecking database user is the install user                  ok\nChecking for prepared transactions                          ok\nChecking for contrib/isn with bigint-passing mismatch       ok\nChecking for incompatible "aclitem" data type               fatal\n\nYour installation contains the "aclitem" data type in user tables.\nA list of the problem columns is in the file:\n    /srv/pg_upgrade_output.d/tables_using_aclitem.txt', {
    details: { exitCode: 1, durationMs: 8_400 },
    runMs: 9_000,
  });
  b.cacheTtl();
  b.assistant([{ type: 'text', text: 'The check fails on an `aclitem` column in `audit_log.grants`. We should convert it to `text[]` before upgrading. **Decision needed:** keep the history (convert) or drop the column?' }]);
  b.user('Convert it, keep the history.');
  b.toolTurn('edit', { path: 'migrations/0041_audit_log_aclitem.sql', oldText: '', newText: 'ALTER TABLE audit_log ALTER COLUMN grants TYPE text[] USING grants::text[];' }, 'Created migrations/0041_audit_log_aclitem.sql (1 line).');
  b.cacheTtl();
  b.assistant([{ type: 'text', text: 'Added `migrations/0041_audit_log_aclitem.sql`.' }]);
  b.wait(6 * HOUR);
  b.compaction(s1, keep1, { readFiles: ['src/db/pool.ts', 'docker-compose.yml'], modifiedFiles: ['migrations/0041_audit_log_aclitem.sql'] });

  // Day 2: tests and fixes, then a second compaction that updates the first summary.
  b.wait(14 * HOUR);
  b.user('Run the whole test suite against the 16.2 container.');
  b.toolTurn('bash', { command: 'docker compose up -d db && npm test' }, testLog(240, 3), { details: { exitCode: 1, durationMs: 41_000 }, runMs: 42_000 });
  b.toolTurn('bash', { command: 'docker compose logs db --since 1h' }, accessLog(1_700, 31), { text: 'Checking the database log during the run.', details: { exitCode: 0 } });
  b.toolTurn('bash', { command: 'psql billing -c "EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM invoices_v2 ..."' }, schemaDump(260_000, 33), { details: { exitCode: 0 } });
  b.toolTurn('bash', { command: 'npm test -- --reporter=verbose 2>&1' }, testLog(1_400, 35), { details: { exitCode: 1 } });
  b.cacheTtl();
  b.assistant([{ type: 'thinking', thinking: 'Two failures in settlement ordering: Postgres 16 no longer guarantees the order of an unordered DISTINCT.', thinkingSignature: 'c2lnLWQy' }, { type: 'text', text: 'Two failures: `settles invoices in order` relies on the row order of `SELECT DISTINCT`. I will add `ORDER BY created_at, id`.' }]);
  const keep2 = b.user('Go ahead, and keep the fix minimal.', 5 * MIN);
  b.toolTurn('edit', { path: 'src/billing/settle.ts', oldText: 'SELECT DISTINCT customer_id FROM invoices', newText: 'SELECT DISTINCT customer_id, created_at, id FROM invoices ORDER BY created_at, id' }, 'Edited src/billing/settle.ts (1 replacement).');
  b.toolTurn('bash', { command: 'npm test -- tests/invoices' }, ' ✓ tests/invoices/service.test.ts (14 tests) 1.21s\n\n Test Files  1 passed (1)\n      Tests  14 passed (14)', { details: { exitCode: 0, durationMs: 2_100 } });
  b.cacheTtl();
  b.assistant([{ type: 'text', text: 'All 14 invoice tests pass now.' }]);
  b.wait(3 * HOUR);
  b.compaction(s2, keep2, { readFiles: ['src/db/pool.ts', 'docker-compose.yml', 'src/billing/settle.ts'], modifiedFiles: ['migrations/0041_audit_log_aclitem.sql', 'src/billing/settle.ts'] });

  // Day 3: the migration review — lots of tool output, which pruning trims and clears.
  b.wait(Math.max(0, end - 16 * MIN - b.now));
  b.user('Review every migration in `migrations/` before we run them against staging. Flag anything that takes a lock longer than 5 s.');
  for (let n = 1; n <= 110; n++) {
    const text = n === 1 ? 'Reading the migrations in order.' : n % 25 === 0 ? `So far ${n} files, no lock above 5 s.` : undefined;
    b.toolTurn('read', { path: `migrations/${String(n).padStart(4, '0')}.sql` }, migrationSql(n), { ...(text ? { text } : {}), details: { lines: 60 }, runMs: 300 });
    b.wait(1_500);
  }
  b.toolTurn('bash', { command: 'pg_dump --schema-only billing_staging' }, schemaDump(80_000), { text: 'Comparing against the live schema.', details: { exitCode: 0 } });
  b.toolTurn('bash', { command: 'npm test 2>&1 | tail -n 1000' }, testLog(900, 5), { details: { exitCode: 1, durationMs: 96_000 }, runMs: 97_000 });
  b.toolTurn('read', { path: '/var/log/nginx/access.log' }, accessLog(700), { text: 'Checking staging traffic during the last dry run.', details: { lines: 700 } });
  b.toolTurn('browser_screenshot', { url: 'http://127.0.0.1:3000/admin/locks' }, [
    { type: 'text', text: 'Screenshot of http://127.0.0.1:3000/admin/locks (96×64)' },
    { type: 'image', data: chartPngBase64(), mimeType: 'image/png' },
  ]);
  b.cacheTtl();
  b.assistant([{ type: 'text', text: '## Review\n\n| Migration | Lock | Verdict |\n|---|---|---|\n| `0041_audit_log_aclitem.sql` | ACCESS EXCLUSIVE, ~12 s | **blocker**: rewrite in batches |\n| `0077_payments_indexes.sql` | none (CONCURRENTLY) | ok |\n| `0102_ledger_partition.sql` | SHARE, ~3 s | ok off-peak |\n\nEverything else takes no lock above 1 s.' }]);
  b.user('Great. Write the findings to docs/migration-review.md.', 3 * MIN);
  b.toolTurn('write', { path: 'docs/migration-review.md', content: '# Migration review\n\n- 0041: blocker, rewrite in batches.\n' }, 'Wrote docs/migration-review.md (3 lines).');
  b.cacheTtl();
  b.assistant([{ type: 'text', text: 'Written to `docs/migration-review.md`.' }]);
  b.user('Also open a draft PR.', 2 * MIN);
  b.toolTurn('bash', { command: 'gh pr create --draft --title "Postgres 16 migration review" --body-file docs/migration-review.md' }, 'https://github.example/billing/pull/412', { details: { exitCode: 0 } });
  b.cacheTtl();
  b.assistant([{ type: 'text', text: 'Draft PR: https://github.example/billing/pull/412' }]);
  return { b, title: 'Postgres 16 migration (billing)' };
}

/** Session B: research with thinking, fetched pages and a pasted chart image. */
function researchSession(start: number): { b: TranscriptBuilder; title: string } {
  const b = new TranscriptBuilder(seedUuid(202), start, 202);
  b.modelChange();
  b.user('Which local embedding model should Cairn default to? It has to run offline on a laptop.');
  b.toolTurn('web_fetch', { url: 'https://example.org/blog/small-embedding-models-2025' }, webPage('Small embedding models, compared', 3), {
    thinking: 'Look for a recent comparison of small embedding models with retrieval scores and CPU latency.',
    details: { status: 200, bytes: 48_213 },
  });
  b.toolTurn('web_fetch', { url: 'https://example.org/docs/gguf-quantisation' }, webPage('GGUF quantisation and retrieval quality', 5), { details: { status: 200 } });
  b.cacheTtl();
  b.assistant([{ type: 'text', text: '**embeddinggemma-300m (Q8_0)** is the best fit: ~330 MB, 768 dims, strong retrieval, fast on CPU. `bge-small-en-v1.5` is a lighter fallback.' }]);
  b.user(
    [
      { type: 'text', text: 'This is the chart from the blog post. Does it agree with you?' },
      { type: 'image', data: chartPngBase64(), mimeType: 'image/png' },
    ],
    4 * MIN,
  );
  b.assistant([
    { type: 'thinking', thinking: 'The fifth bar is the tallest; in the post that is embeddinggemma. Consistent.', thinkingSignature: 'c2lnLXJlcw==' },
    { type: 'text', text: 'Yes — the tallest bar (5th) is embeddinggemma-300m.\n\n- Default: `hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF`\n- Fallback: the shipped static embeddings, potion-base-8M (no download)\n\n> Downloaded only when the user asks, with a progress bar.' },
  ]);
  b.cacheTtl();
  b.toolTurn('bash', { command: 'ls -la ~/.cache/cairn/models' }, 'total 0\ndrwxr-xr-x 2 ana ana 40 Mar 12 09:14 .\n', { details: { exitCode: 0 } });
  b.cacheTtl();
  b.assistant([{ type: 'text', text: 'No model downloaded yet; Cairn will use the static vectors until you download one in Settings.' }]);
  b.entry('session_info', { name: 'Embedding model choice' }, 100);
  return { b, title: 'Embedding model choice' };
}

/** Session C: one question. */
function quickSession(start: number): { b: TranscriptBuilder; title: string } {
  const b = new TranscriptBuilder(seedUuid(303), start, 303);
  // Named like the others, so the demo's list shows "Time zone question", not the session key.
  b.entry('session_info', { name: 'Time zone question' }, 100);
  b.user("What's 09:30 in San Francisco in Berlin time on March 12?");
  b.assistant([{ type: 'text', text: 'On March 12 San Francisco is on PDT (UTC−7) and Berlin on CET (UTC+1): **17:30** in Berlin.' }]);
  b.cacheTtl();
  return { b, title: 'Time zone question' };
}

/** Session D: weekly planning that reads and appends to memory files. */
function planningSession(start: number, day: string): { b: TranscriptBuilder; title: string } {
  const b = new TranscriptBuilder(seedUuid(404), start, 404);
  b.entry('session_info', { name: 'Weekly planning' }, 100);
  b.user('Plan my week. Check what I noted last week first.');
  b.toolTurn('read', { path: 'MEMORY.md' }, '# Long-term memory\n\n- Prefers mornings for deep work.\n- Billing migration owner: Ana.\n- Never deploy on Fridays.\n', { details: { lines: 5 } });
  b.toolTurn('memory_search', { query: 'open todos last week' }, JSON.stringify({ results: [{ path: 'memory/notes.md', startLine: 3, endLine: 6, score: 0.71, snippet: 'TODO: renew TLS cert for billing.example (expires Mar 20)' }] }, null, 2));
  b.cacheTtl();
  b.assistant([{ type: 'text', text: '### This week\n\n- **Mon–Tue**: Postgres 16 migration review (mornings)\n- **Wed**: renew TLS cert for `billing.example` (expires Mar 20)\n- **Thu**: staging dry run\n- ~~Fri deploy~~ — never on Fridays\n\n- [ ] book the staging window\n- [x] migration plan drafted' }]);
  b.user('Good. Save that plan to today\'s note.', 2 * MIN);
  b.toolTurn('write', { path: `memory/${day}.md`, content: '## Week plan\n- Mon–Tue migration review\n- Wed TLS cert\n- Thu staging dry run\n' }, `Appended 4 lines to memory/${day}.md.`);
  b.entry('custom_message', { customType: 'openclaw.reminder', content: 'Reminder: the staging window must be booked by Wednesday.', display: true }, 500);
  b.cacheTtl();
  b.assistant([{ type: 'text', text: `Saved to \`memory/${day}.md\`.` }]);
  return { b, title: 'Weekly planning' };
}

/** Write the four demo sessions (and sessions.json) into `stateDir`. */
export function seedSessions(stateDir: string, opts: SeedOptions = {}): SeededSessions {
  const now = (opts.now ?? new Date()).getTime();
  const agentId = opts.agentId ?? 'main';
  const dir = sessionsDirOf(stateDir, agentId);
  fs.mkdirSync(dir, { recursive: true });
  writeMarker(stateDir, opts.access ?? 'cairn', new Date(now));
  const day = new Date(now - 6 * DAY).toISOString().slice(0, 10);
  const made: [string, { b: TranscriptBuilder; title: string }, Record<string, unknown>][] = [
    ['agent:main:main', billingSession(now - 3 * DAY, now - 25 * MIN), { chatType: 'direct', lastChannel: 'webchat', memoryFlushCompactionCount: 2 }],
    ['agent:main:telegram:dm:4711', researchSession(now - 5 * HOUR), { chatType: 'direct', lastChannel: 'telegram' }],
    ['agent:main:cli:quick', quickSession(now - 2 * DAY), { chatType: 'direct', lastChannel: 'cli' }],
    ['agent:main:slack:c042planning', planningSession(now - 6 * DAY, day), { chatType: 'group', lastChannel: 'slack' }],
  ];
  const sessions: SeededSession[] = made.map(([key, { b, title }, extra]) => {
    const file = b.write(dir);
    addIndexEntry(dir, key, b, file, extra);
    return { key, sessionId: b.sessionId, file, title, entries: b.entryCount };
  });
  return { stateDir, sessionsDir: dir, sessions, compacted: sessions[0] as SeededSession };
}

/**
 * Write one session of exactly `entries` entries (user / assistant with thinking and tool
 * calls / tool results of 1–6k chars / cache-ttl markers, a compaction every ~2,500 entries),
 * for the "open a 10,000-entry session" bench and the big-input tests; the demo does not use it.
 * Returns the seeded session.
 * @internal
 */
export function seedLargeSession(stateDir: string, entries = 10_000, opts: SeedOptions = {}): SeededSession {
  const now = (opts.now ?? new Date()).getTime();
  const dir = sessionsDirOf(stateDir, opts.agentId ?? 'main');
  writeMarker(stateDir, opts.access ?? 'cairn', new Date(now));
  const b = new TranscriptBuilder(seedUuid(9000 + entries), now - 30 * DAY, 9000 + entries);
  let keepFrom: string | undefined;
  let cycle = 0;
  const stepMs = (29 * DAY) / entries;
  let sinceCompaction = 0;
  while (b.entryCount < entries - 1) {
    cycle++;
    const left = entries - b.entryCount;
    if (left < 6) {
      b.user(`Note ${cycle}: keep going.`, stepMs);
      continue;
    }
    const u = b.user(`Step ${cycle}: check \`src/module${cycle % 97}.ts\` and fix what the tests report.`, stepMs);
    if (cycle % 7 === 1) keepFrom = u;
    b.toolTurn('read', { path: `src/module${cycle % 97}.ts` }, sourceFile(`src/module${cycle % 97}.ts`, 20 + (cycle % 5) * 20), {
      thinking: cycle % 3 === 0 ? `Cycle ${cycle}: read the module before editing.` : undefined,
      details: { lines: 40 },
      runMs: stepMs,
    });
    b.cacheTtl(stepMs / 4);
    b.assistant([{ type: 'text', text: `Module ${cycle % 97}: **${cycle % 4 === 0 ? 'fixed' : 'no change needed'}**.\n\n- checked \`${cycle}\` call sites` }], {}, stepMs);
    sinceCompaction += 5;
    if (sinceCompaction >= 2_500 && keepFrom && b.entryCount < entries - 2) {
      b.compaction(`## Decisions\n- Modules 0–${cycle % 97} reviewed (cycle ${cycle}).\n\n## Open TODOs\n- Continue from module ${(cycle + 1) % 97}.`, keepFrom);
      sinceCompaction = 0;
    }
  }
  if (b.entryCount < entries) b.assistant([{ type: 'text', text: 'Done for today.' }], {}, stepMs);
  const file = b.write(dir);
  const key = `agent:main:bench:${entries}`;
  addIndexEntry(dir, key, b, file, { chatType: 'direct', lastChannel: 'cli' });
  return { key, sessionId: b.sessionId, file, title: `Large session (${entries} entries)`, entries: b.entryCount };
}
