/**
 * The engine's user-facing error: a contract error code plus a message. Its own module so
 * that code which only throws it (the context, search) does not load the dispatcher and
 * with it every channel's zod schema — that was a fifth of `cairn search`'s start-up.
 * dispatcher.ts re-exports it, so `import { EngineError } from './rpc/dispatcher'` still works.
 */
import type { ErrorCode, FieldError } from '../../../shared/contract/define';

export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The request fields at fault, when the error is about a field (the UI marks them). */
    readonly fields?: FieldError[],
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
