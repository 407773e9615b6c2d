/**
 * The typed client, built from the contract over any transport. The renderer, the CLI and
 * the tests all use this; only the transport differs (Electron IPC, HTTP + SSE, in-process).
 */
import type { FieldError } from './contract/define';
import {
  channelNames,
  type Channel,
  type EventName,
  type EventPayload,
  type RequestIn,
  type ResponseOf,
  type Result,
  type ErrorCode,
} from './contract';

/** The wire: send one request, get a Result; subscribe to an event. */
export interface Transport {
  invoke(channel: Channel, request: unknown, opId?: string): Promise<Result<unknown>>;
  subscribe(event: EventName, listener: (payload: unknown) => void): () => void;
}

export interface CallOptions {
  /** Aborting sends `op.cancel` for this call; the call then rejects with code `cancelled`. */
  signal?: AbortSignal;
  /** Correlates progress events with this call; generated when a signal is given. */
  opId?: string;
}

export type CairnApi = {
  [C in Channel]: (request: RequestIn<C>, options?: CallOptions) => Promise<ResponseOf<C>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
};

/** An error that came back from the engine as `{ok:false}`. */
export class CairnError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The request fields at fault (path + message for a person), when the engine named them. */
    readonly fields: FieldError[] = [],
  ) {
    super(message);
    this.name = 'CairnError';
  }
}

export function newOpId(): string {
  return globalThis.crypto.randomUUID();
}

export function unwrap<T>(res: Result<T>): T {
  if (res.ok) return res.value;
  throw new CairnError(res.error.code, res.error.message, res.error.fields ?? []);
}

/** Build the typed client: one named method per channel, generated from the contract. */
export function createClient(transport: Transport): CairnApi {
  const api: Record<string, unknown> = {};
  for (const channel of channelNames) {
    api[channel] = async (request: unknown, options: CallOptions = {}) => {
      const opId = options.opId ?? (options.signal ? newOpId() : undefined);
      const { signal } = options;
      if (signal?.aborted) throw new CairnError('cancelled', `${channel}: cancelled before it started`);
      const onAbort = () => {
        if (opId) void transport.invoke('op.cancel', { opId });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return unwrap(await transport.invoke(channel, request ?? {}, opId));
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    };
  }
  api.on = (event: EventName, listener: (payload: unknown) => void) => transport.subscribe(event, listener);
  return api as CairnApi;
}
