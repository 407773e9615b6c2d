/**
 * Channels of the compaction audit ("what each compaction lost") and the MEMORY.md health
 * list. All read only: a health item's fix is applied through `memory.write`.
 */
import { z } from 'zod';
import { ch } from './define';
import { SessionIdSchema } from './sessions';
import type { MemoryHealth, SessionAudit, StateAudit } from '../types/audit';

export type * from '../types/audit';

const AgentId = z.string().regex(/^[A-Za-z0-9_-]+$/).max(100);

export const auditChannels = {
  /** Every compaction of one session with what it lost (identifiers, asks, TODOs, decisions), the flush before it and the summary it replaced. */
  'audit.session': ch(z.object({ sessionId: SessionIdSchema, agentId: AgentId.optional() })).returns<SessionAudit>(),
  /** Every compacted session of the agent: "4 of 19 compactions lost identifiers; the last one lost …". */
  'audit.state': ch(z.object({ agentId: AgentId.optional() })).returns<StateAudit>(),
  /** The MEMORY.md health list: near-duplicates, stale sources, never recalled since promotion, contradictions. */
  'memory.health': ch(z.object({ agentId: AgentId.optional() })).returns<MemoryHealth>(),
};
