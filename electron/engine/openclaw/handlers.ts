/**
 * The `openclaw.*` channels: whether an OpenClaw state dir's agent recalls through Cairn, and
 * connecting it (or undoing that) — the same engine functions `cairn connect openclaw` calls.
 * The app's button asks for consent itself before it calls `openclaw.connect` without `dryRun`.
 */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { connectOpenClaw, openClawConnection } from './connect';

export function openclawHandlers(ctx: EngineContext): Pick<Handlers, 'openclaw.connection' | 'openclaw.connect'> {
  const env = (): NodeJS.ProcessEnv => ctx.env();
  return {
    'openclaw.connection': (req) => openClawConnection(req.stateDir),
    'openclaw.connect': (req) => connectOpenClaw(req.stateDir, { dryRun: req.dryRun, undo: req.undo }, { env: env(), now: () => ctx.now() }),
  };
}
