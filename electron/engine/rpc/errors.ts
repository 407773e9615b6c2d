/**
 * The engine's user-facing error: a contract error code plus a message. Its own module so
 * that code which only throws it (the context, search) does not load the dispatcher and
 * with it every channel's zod schema — that was a fifth of `cairn search`'s start-up.
 * dispatcher.ts re-exports it, so `import { EngineError } from './rpc/dispatcher'` still works.
 */
import type { ErrorCode } from '../../../shared/contract/define';

export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}
