/**
 * The doctor's "Session stores" check: which store(s) each agent of the state dir uses and
 * how many sessions each holds — so a dir written by OpenClaw 2026.9 (sessions in SQLite,
 * none in JSONL) no longer looks empty without a word.
 */
import type { DoctorCheck } from '../../../../shared/contract';
import type { EngineContext } from '../../core/context';
import { sessionStores } from '.';
import { newerSchemaNote } from './openclaw-sqlite';

const NAMES = { jsonl: 'JSONL', 'openclaw-sqlite': "OpenClaw's SQLite store (read-only)" } as const;

/** How OpenClaw's database was read, in words (a copy only when SQLite cannot read it in place). */
const HOW: Record<string, string> = {
  direct: 'read in place',
  'wal-in-place': 'read in place while OpenClaw writes (WAL)',
  'in-memory': 'read into memory (WAL mode, OpenClaw stopped)',
  snapshot: "read from a copy in Cairn's data dir",
};

function howRead(store: ReturnType<typeof sessionStores>[number]): string {
  const info = store.readInfo?.();
  if (!info) return '';
  return `; ${HOW[info.mode] ?? info.mode}${info.reason ? ` because ${info.reason}` : ''}`;
}

/** One line per agent whose OpenClaw store has a schema newer than Cairn knows (for the window's banner). */
export function storeSchemaWarnings(ctx: EngineContext): string[] {
  const out: string[] = [];
  for (const agentId of ctx.agents()) {
    for (const store of sessionStores(ctx, agentId)) {
      if (!store.schema || !store.present()) continue;
      try {
        const newer = newerSchemaNote(store.schema().version);
        if (newer) out.push(`${agentId}: ${newer}`);
      } catch {
        // an unreadable store is named by doctor's check
      }
    }
  }
  return out;
}

/** One line per agent and store that exists; warn when a store cannot be read. */
export function sessionStoresCheck(ctx: EngineContext): Omit<DoctorCheck, 'id' | 'label'> {
  const lines: string[] = [];
  const problems: string[] = [];
  for (const agentId of ctx.agents()) {
    for (const store of sessionStores(ctx, agentId)) {
      if (!store.present()) continue;
      try {
        const n = store.list().length;
        const schema = store.schema?.();
        const cold = schema?.coldSessions ? `, ${schema.coldSessions} with older messages in cold storage (read from sessions/cold/)` : '';
        const version = schema ? `, schema version ${schema.version}` : '';
        lines.push(`${agentId}: ${NAMES[store.kind]}: ${n} session${n === 1 ? '' : 's'}${cold} (${store.source}${howRead(store)}${version})`);
        const newer = schema && newerSchemaNote(schema.version);
        if (newer) problems.push(`${agentId}: ${newer}`);
      } catch (err) {
        problems.push(`${agentId}: ${NAMES[store.kind]} cannot be read: ${(err as Error).message}`);
      }
    }
  }
  if (problems.length) return { status: 'warn', detail: [...problems, ...lines].join('\n'), hint: 'Those sessions are not shown (or not whole); check the named file, or update Cairn for a newer OpenClaw.' };
  if (lines.length === 0) return { status: 'ok', detail: 'no sessions yet' };
  return { status: 'ok', detail: lines.join('\n') };
}
