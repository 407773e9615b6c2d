/** The Electron transport: the preload's named methods (window.cairnBridge) → the typed client. */
import type { Channel, EventName, Result } from '../../../shared/contract';
import type { Transport } from '../../../shared/client';
import type { CairnBridge } from '../../../shared/bridge';

export function ipcTransport(bridge: CairnBridge): Transport {
  return {
    invoke: (channel: Channel, request: unknown, opId?: string) =>
      (bridge[channel] as (req: unknown, opId?: string) => Promise<Result<unknown>>)(request, opId),
    subscribe: (event: EventName, listener) => bridge.on(event, listener),
  };
}
