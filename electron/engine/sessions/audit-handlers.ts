/** Handlers of the audit channels (shared/contract/audit.ts): the compaction audit and the MEMORY.md health list. */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { memoryHealth } from '../memory-health/health';
import { auditSession, auditState } from './audit';

export function auditHandlers(ctx: EngineContext): Pick<Handlers, 'audit.session' | 'audit.state' | 'memory.health'> {
  return {
    'audit.session': (req, call) => auditSession(ctx, req.sessionId, req.agentId, call.signal),
    'audit.state': (req, call) => auditState(ctx, req.agentId, call.signal),
    'memory.health': (req) => memoryHealth(ctx, ctx.agentId(req.agentId)),
  };
}
