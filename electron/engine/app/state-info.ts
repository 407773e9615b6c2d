/** Handler of `state.info`: the state dir and whether Cairn may write, without running checks. */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';

export function stateInfoHandlers(ctx: EngineContext): Pick<Handlers, 'state.info'> {
  return {
    'state.info': () => {
      const s = ctx.state();
      return { stateDir: s.stateDir, writable: s.writable, createdBy: s.createdBy };
    },
  };
}
