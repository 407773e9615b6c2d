/** The `openclaw.recall` channel: the Sessions view's read of what Cairn recalled for each prompt of a session. */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { readSessionRecall } from './recall-read';

export function openclawRecallHandlers(ctx: EngineContext): Pick<Handlers, 'openclaw.recall'> {
  return {
    'openclaw.recall': (req) => readSessionRecall(ctx, ctx.agentId(req.agentId), req.sessionId),
  };
}
