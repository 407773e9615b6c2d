/**
 * The llm domain's types: the LLM interface (defined on the ground floor, core/llm.ts, since
 * the engine context names it) and the errors its providers throw.
 */
import { EngineError } from '../core/errors';
export type { ChatRequest, ChatResult, LLM, ToolSpec } from '../core/llm';

/** The provider said the request does not fit the model's context (trigger (c) of SPEC §4). */
export class ContextOverflowError extends EngineError {
  constructor(message: string) {
    super('unavailable', message);
    this.name = 'ContextOverflowError';
  }
}

/** Authentication failed (HTTP 401/403): not retried; the message says which key to check. */
export class AuthError extends EngineError {
  constructor(message: string) {
    // The user fixes a rejected key in Settings → Model: the model is unavailable until then.
    super('unavailable', message);
    this.name = 'AuthError';
  }
}
