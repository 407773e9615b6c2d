/**
 * Pieces of the seed shared by every seeded session: the `sessions.json` entry (OpenClaw's
 * fields), Cairn's state marker, and the two compaction summaries of the long session (the
 * second updates the first: the "summary of a summary" chain).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TranscriptBuilder } from './seed-writer';

export type SeedAccess = 'cairn' | 'read-only' | 'none';

/** Mark the state dir as Cairn's (writable) or as foreign read-only, unless a marker exists. */
export function writeMarker(stateDir: string, access: SeedAccess, now: Date): void {
  if (access === 'none') return;
  const file = path.join(stateDir, 'cairn', 'state.json');
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const marker = access === 'cairn' ? { createdBy: 'cairn', writable: true } : { createdBy: 'external', writable: false };
  fs.writeFileSync(file, `${JSON.stringify({ ...marker, createdAt: now.toISOString() }, null, 2)}\n`);
}

/** Add (or replace) the `sessions.json` entry of a written transcript. */
export function addIndexEntry(dir: string, key: string, b: TranscriptBuilder, file: string, extra: Record<string, unknown>): void {
  const indexFile = path.join(dir, 'sessions.json');
  const index: Record<string, unknown> = fs.existsSync(indexFile) ? (JSON.parse(fs.readFileSync(indexFile, 'utf8')) as Record<string, unknown>) : {};
  const compactions = b.lines.filter((l) => l.includes('"type":"compaction"')).length;
  index[key] = {
    sessionId: b.sessionId,
    sessionFile: file,
    updatedAt: b.now,
    totalTokens: b.contextTokens() + 2_400,
    contextTokens: 200_000,
    compactionCount: compactions,
    ...(compactions > 0 ? { memoryFlushAt: b.now - 3_600_000, memoryFlushCompactionCount: compactions } : {}),
    ...extra,
  };
  fs.writeFileSync(indexFile, `${JSON.stringify(index, null, 2)}\n`);
}

/** A summary in the compaction format: each heading with its bullets, then an optional footer. */
function summaryText(sections: Record<string, string[]>, footer?: string): string {
  const body = Object.entries(sections).map(([heading, bullets]) => [`## ${heading}`, ...bullets.map((b) => `- ${b}`)].join('\n'));
  return [...body, ...(footer ? [footer] : [])].join('\n\n');
}

/** The long session's two summaries; the second carries the first forward, updated. */
export function compactionSummaries(): [string, string] {
  const decisions = ['Move billing from Postgres 13.14 to 16.2 (docker-compose `postgres:16.2`).', 'Convert `audit_log.grants` from `aclitem` to `text[]` and keep the history.'];
  const todos = ['Review every migration for lock time (> 5 s is a blocker).', 'Move `statement_timeout` to the role level.'];
  const rules = ['Use the staging snapshot `snap-2025-03-10`; never touch production.'];
  const first = summaryText({
    Decisions: decisions,
    'Open TODOs': todos,
    'Constraints/Rules': rules,
    'Pending user asks': ['None.'],
    'Exact identifiers': ['`migrations/0041_audit_log_aclitem.sql`', '`/srv/pg_upgrade_output.d/tables_using_aclitem.txt`', '`snap-2025-03-10`'],
  });
  const second = summaryText(
    {
      Decisions: [...decisions, 'Settlement queries order explicitly (`ORDER BY created_at, id`): Postgres 16 does not keep the old `DISTINCT` order.'],
      'Open TODOs': todos,
      'Constraints/Rules': [...rules, 'Keep fixes minimal.'],
      'Pending user asks': ['None.'],
      'Exact identifiers': ['`migrations/0041_audit_log_aclitem.sql`', '`src/billing/settle.ts`', '`snap-2025-03-10`'],
    },
    '_Updated from the previous summary (compaction 1)._',
  );
  return [first, second];
}
