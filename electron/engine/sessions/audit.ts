/**
 * The compaction audit of one session and of a whole agent: reads the transcript
 * through the session stores (JSONL files or OpenClaw's SQLite store, read only), the flush
 * evidence from the workspace's notes and Cairn's records (compaction/audit-flush.ts), and
 * hands both to the audit proper (compaction/audit.ts). Nothing here writes.
 */
import type { CompactionAudit, SessionAudit, StateAudit, StateAuditSession } from '../../../shared/types/audit';
import type { EngineContext } from '../core/context';
import { auditSentence, auditTranscript } from '../compaction/audit';
import { flushEvidence, readCompactionRecords } from '../compaction/audit-flush';
import { windowThresholds } from '../compaction/thresholds';
import { listSessions } from './list';
import { loadSoftly } from './load-soft';
import { resolveSession } from './resolve';

const lostIdsOf = (c: CompactionAudit) => c.lost.identifiers.map((i) => i.value);

/** Audit every compaction of `sessionId`. */
export async function auditSession(ctx: EngineContext, sessionId: string, agentId?: string, signal?: AbortSignal): Promise<SessionAudit> {
  const s = resolveSession(ctx, sessionId, agentId);
  const t = await loadSoftly(ctx, s, signal);
  const settings = ctx.config().config.agents.defaults.compaction;
  const th = windowThresholds(s.contextWindow, settings);
  const workspace = ctx.paths(s.agentId).workspace;
  const records = readCompactionRecords(ctx.state().settingsDir, s.sessionId);
  const compactions = await auditTranscript(t, {
    between: async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    },
    sessionId: s.sessionId,
    policy: settings.identifierPolicy,
    threshold: th.compactAt,
    flushFor: (c) => flushEvidence({ workspace, records, entry: s.entry, fromMs: c.fromMs, toMs: c.toMs, tokensBefore: c.tokensBefore, flushThreshold: th.flushAt }),
  });
  return {
    agentId: s.agentId,
    sessionId: s.sessionId,
    store: s.store,
    policy: settings.identifierPolicy,
    summary: auditSentence(compactions.map((c) => ({ lostIds: lostIdsOf(c) })), settings.identifierPolicy),
    compactions,
  };
}

/** Audit every compacted session of the agent: "4 of 19 compactions lost identifiers; the last one lost …". */
export async function auditState(ctx: EngineContext, agentId?: string, signal?: AbortSignal): Promise<StateAudit> {
  const list = await listSessions(ctx, agentId);
  const policy = ctx.config().config.agents.defaults.compaction.identifierPolicy;
  const sessions: StateAuditSession[] = [];
  const all: { sessionId: string; c: CompactionAudit }[] = [];
  for (const row of list.sessions) {
    if (!row.compactions) continue;
    signal?.throwIfAborted();
    try {
      const a = await auditSession(ctx, row.id, list.agentId, signal);
      for (const c of a.compactions) all.push({ sessionId: row.id, c });
      const last = a.compactions.at(-1);
      sessions.push({
        sessionId: row.id,
        compactions: a.compactions.length,
        lostIdentifiers: a.compactions.reduce((n, c) => n + c.lostCounts.identifiers, 0),
        lastLost: last ? lostIdsOf(last).slice(0, 5) : [],
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      sessions.push({ sessionId: row.id, compactions: row.compactions, lostIdentifiers: 0, lastLost: [], error: (err as Error).message });
    }
  }
  all.sort((a, b) => a.c.timestamp.localeCompare(b.c.timestamp));
  const lossy = all.filter((x) => x.c.lostCounts.identifiers > 0);
  const last = lossy.at(-1);
  return {
    agentId: list.agentId,
    policy,
    summary: auditSentence(all.map((x) => ({ lostIds: lostIdsOf(x.c) })), policy),
    compactions: all.length,
    withLostIdentifiers: lossy.length,
    last: last
      ? {
          sessionId: last.sessionId,
          compactionId: last.c.id,
          timestamp: last.c.timestamp,
          identifiers: lostIdsOf(last.c).slice(0, 5),
          at: last.c.lost.identifiers.slice(0, 5).map((i) => i.at),
        }
      : undefined,
    sessions,
  };
}
