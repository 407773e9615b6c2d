/**
 * The dispatcher: the single door into the engine for every transport. It checks the
 * channel name, validates the request with the contract's zod schema, runs the handler with
 * an AbortSignal (cancellable through `op.cancel`), and turns every outcome into a Result.
 */
import { z } from 'zod';
import {
  channels,
  isChannel,
  type Channel,
  type ErrorCode,
  type RequestOut,
  type ResponseOf,
  type Result,
} from '../../../shared/contract';
import { describeSystemError, EngineError, isSystemError } from '../base/errors';
import { fieldErrors } from './field-errors';
import type { FieldError } from '../../../shared/contract/define';

export interface HandlerContext {
  signal: AbortSignal;
  /** Present when the caller wants progress events / cancellation for this call. */
  opId: string | undefined;
}

export type Handler<C extends Channel> = (
  request: RequestOut<C>,
  ctx: HandlerContext,
) => Promise<ResponseOf<C>> | ResponseOf<C>;

/** Every channel must have a handler: a missing one fails type-checking. */
export type Handlers = { [C in Channel]: Handler<C> };

function describeZodError(channel: string, err: z.ZodError): string {
  const parts = err.issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : '(request)'}: ${i.message}`);
  return `${channel}: invalid request: ${parts.join('; ')}`;
}

export interface Dispatcher {
  dispatch(channel: string, request: unknown, opId?: string): Promise<Result<unknown>>;
  /** Abort every running operation that has an opId (on shutdown); calls without one run to the end. */
  abortAll(): void;
}

export function createDispatcher(handlers: Handlers): Dispatcher {
  const running = new Map<string, AbortController>();
  const cancel = (opId: string): boolean => {
    const ac = running.get(opId);
    if (!ac) return false;
    ac.abort();
    return true;
  };
  return {
    async dispatch(channel, request, opId) {
      if (!isChannel(channel)) {
        return { ok: false, error: { code: 'unknown_channel', message: `unknown channel ${JSON.stringify(channel)}` } };
      }
      if (channel === 'op.cancel') {
        const parsed = channels['op.cancel'].request.safeParse(request);
        if (!parsed.success) return { ok: false, error: { code: 'bad_request', message: describeZodError(channel, parsed.error), fields: fieldErrors(parsed.error) } };
        return { ok: true, value: { cancelled: cancel(parsed.data.opId) } };
      }
      const schema = channels[channel].request as z.ZodType;
      const parsed = schema.safeParse(request ?? {});
      if (!parsed.success) {
        return { ok: false, error: { code: 'bad_request', message: describeZodError(channel, parsed.error), fields: fieldErrors(parsed.error) } };
      }
      const ac = new AbortController();
      if (opId) running.set(opId, ac);
      try {
        const handler = handlers[channel] as Handler<Channel>;
        const value = await handler(parsed.data as never, { signal: ac.signal, opId });
        if (ac.signal.aborted) return { ok: false, error: { code: 'cancelled', message: `${channel}: cancelled` } };
        return { ok: true, value };
      } catch (err) {
        return { ok: false, error: toErrorValue(channel, err, ac.signal.aborted) };
      } finally {
        if (opId) running.delete(opId);
      }
    },
    abortAll() {
      for (const ac of running.values()) ac.abort();
      running.clear();
    },
  };
}

/**
 * Every error a handler throws, as the contract's error: the one place errors are mapped. A
 * cancelled call is `cancelled` whatever it threw on the way out; domain errors (EngineError
 * and its subclasses) keep their code; a raw Node system error (ENOENT, EACCES, ENOSPC…) says
 * in words what failed on which path, with the code that fits; only the rest is `internal`.
 */
function toErrorValue(channel: string, err: unknown, aborted: boolean): { code: ErrorCode; message: string; fields?: FieldError[] } {
  const e = err as Error & { name?: string };
  if (aborted || e?.name === 'AbortError') return { code: 'cancelled', message: `${channel}: cancelled` };
  if (err instanceof EngineError) return { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) };
  if (e instanceof z.ZodError) return { code: 'bad_request', message: describeZodError(channel, e), fields: fieldErrors(e) };
  if (isSystemError(err)) return describeSystemError(err);
  return { code: 'internal', message: e?.message ?? String(err) };
}

/** The `op.cancel` channel is served by the dispatcher itself; handler maps use this. */
export const opCancelHandler: Handler<'op.cancel'> = () => {
  throw new EngineError('internal', 'op.cancel is handled by the dispatcher');
};
