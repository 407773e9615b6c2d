/**
 * The engine's user-facing error: a contract error code plus a message. On the ground floor
 * (core/) so every floor can throw it, and apart from the dispatcher so that code which only
 * throws it does not load every channel's zod schema — that was a fifth of `cairn search`'s
 * start-up.
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
