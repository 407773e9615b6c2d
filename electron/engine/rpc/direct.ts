/** The in-process transport: the typed client calling the engine's dispatcher directly. */
import { createClient, type CairnApi, type Transport } from '../../../shared/client';
import type { Dispatcher } from './dispatcher';
import type { EventBus } from './events';

export function directTransport(dispatcher: Dispatcher, events: EventBus): Transport {
  return {
    // A structured clone keeps in-process calls honest: the same data crosses as over IPC.
    invoke: async (channel, request, opId) => structuredClone(await dispatcher.dispatch(channel, structuredClone(request), opId)),
    subscribe: (event, listener) => events.on(event, (p) => listener(structuredClone(p))),
  };
}

export function createDirectClient(engine: { dispatcher: Dispatcher; events: EventBus }): CairnApi {
  return createClient(directTransport(engine.dispatcher, engine.events));
}
