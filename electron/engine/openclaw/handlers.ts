/**
 * The `openclaw.*` channels: whether an OpenClaw state dir's agent recalls through Cairn, and
 * connecting it (or undoing that) — the same engine functions `cairn connect openclaw` calls.
 * The app's button shows a dry run's diff and, after the person's yes, calls `openclaw.connect`
 * with that diff's hash: a change that differs by then is refused (`stale`) with the new diff.
 */
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';
import { connectOpenClaw, openClawConnection } from './connect';

export function openclawHandlers(ctx: EngineContext): Pick<Handlers, 'openclaw.connection' | 'openclaw.connect'> {
  const env = (): NodeJS.ProcessEnv => ctx.env();
  return {
    'openclaw.connection': (req) => openClawConnection(req.stateDir),
    'openclaw.connect': (req) => connectOpenClaw(req.stateDir, { dryRun: req.dryRun, undo: req.undo, expectDiffSha256: req.expectDiffSha256 }, { env: env(), now: () => ctx.now() }),
  };
}
