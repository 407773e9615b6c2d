/**
 * Turning a provider's HTTP error into the right error class. The overflow patterns are the
 * wire texts real servers send (OpenAI, Anthropic, llama.cpp server, Ollama, vLLM,
 * LM Studio): the turn loop compacts and retries on a ContextOverflowError, so recognising
 * them matters more than the exact wording of the message we show.
 */
import { AuthError, ContextOverflowError } from './types';
import { abortError as cancelledError } from '../util/abort';
import { EngineError } from '../core/errors';

/** A non-auth, non-overflow failure of a provider call; `retryable` for 429/5xx. */
export class LlmHttpError extends EngineError {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
  ) {
    super('unavailable', message);
    this.name = 'LlmHttpError';
  }
}

const OVERFLOW_PATTERNS: RegExp[] = [
  /context_length_exceeded/i, // OpenAI error.code
  /maximum context length/i, // OpenAI / vLLM message
  /prompt is too long/i, // Anthropic
  /exceed context limit/i, // Anthropic: input + max_tokens > window
  /exceed_context_size_error/i, // llama.cpp server error.type
  /exceeds? the available context size/i, // llama.cpp server message
  /input (length )?exceeds (the )?(maximum )?context length/i, // Ollama
  /exceeds? (the )?(model'?s? )?context (length|window)/i,
  /too large to process\. increase the physical batch size/i, // llama.cpp (older)
  /context (length|window) (exceeded|overflow)/i,
  /is loaded with context length of only \d+ tokens/i, // LM Studio
  /input is too long for requested model/i,
];

/** True when a provider's error text says the request does not fit the context window. */
export function isOverflowText(text: string): boolean {
  return OVERFLOW_PATTERNS.some((re) => re.test(text));
}

/** Pull a human message out of a JSON error body (OpenAI / Anthropic / llama.cpp shapes). */
export function errorMessageFromBody(body: string): string {
  try {
    const j = JSON.parse(body) as Record<string, unknown>;
    const e = j.error;
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object') {
      const m = (e as Record<string, unknown>).message;
      if (typeof m === 'string') return m;
    }
    if (typeof j.message === 'string') return j.message;
    if (typeof j.detail === 'string') return j.detail;
  } catch {
    // not JSON: fall through to the raw text
  }
  const text = body.trim();
  return text.length > 500 ? `${text.slice(0, 500)}…` : text || '(empty body)';
}

/** How a client names itself and its key in error messages. */
export interface ErrorContext {
  /** e.g. "OpenAI-compatible server at http://127.0.0.1:11434". */
  what: string;
  /** Where the key came from and how to fix it, e.g. "set cairn.llm.apiKey or OPENAI_API_KEY". */
  keyHint: string;
}

/** Map an HTTP error status + body to AuthError / ContextOverflowError / LlmHttpError. */
export function httpError(status: number, body: string, ctx: ErrorContext): Error {
  const msg = errorMessageFromBody(body);
  if (status === 401 || status === 403) {
    return new AuthError(`${ctx.what} refused the request (HTTP ${status}: ${msg}); ${ctx.keyHint}`);
  }
  if ((status === 400 || status === 413 || status === 422 || status === 500) && isOverflowText(body)) {
    return new ContextOverflowError(`${ctx.what}: the request does not fit the model's context window (HTTP ${status}: ${msg})`);
  }
  // 413 without overflow wording is still "too big" for Anthropic (request_too_large).
  if (status === 413) return new ContextOverflowError(`${ctx.what}: request too large (HTTP 413: ${msg})`);
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  return new LlmHttpError(`${ctx.what}: HTTP ${status}: ${msg}`, status, retryable);
}

/** An error event inside a stream (Anthropic `event: error`, OpenAI `data: {"error":…}`). */
export function streamError(payload: unknown, ctx: ErrorContext): Error {
  const body = JSON.stringify(payload);
  const msg = errorMessageFromBody(body);
  if (isOverflowText(body)) return new ContextOverflowError(`${ctx.what}: the request does not fit the model's context window (${msg})`);
  const overloaded = /overloaded|rate_limit|server_error|api_error/i.test(body);
  return new LlmHttpError(`${ctx.what}: error during streaming: ${msg}`, undefined, overloaded);
}

/** An AbortError like fetch throws, so callers can treat every abort the same way. */
export function abortError(signal: AbortSignal | undefined): Error {
  return cancelledError(signal, 'the model call was cancelled');
}
