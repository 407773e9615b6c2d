/**
 * The `openclaw.*` channels: whether an OpenClaw state dir is connected to Cairn, and
 * connecting it. Placeholder until the connection is built: both answer `unavailable`.
 */
import { EngineError } from '../core/errors';
import type { EngineContext } from '../core/context';
import type { Handlers } from '../rpc/dispatcher';

export function openclawHandlers(_ctx: EngineContext): Pick<Handlers, 'openclaw.connection' | 'openclaw.connect'> {
  const unavailable = (): never => {
    throw new EngineError('unavailable', 'Connecting to OpenClaw is not available in this build.');
  };
  return { 'openclaw.connection': unavailable, 'openclaw.connect': unavailable };
}
