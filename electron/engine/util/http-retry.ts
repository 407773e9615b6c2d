/**
 * The one retry-with-backoff loop for the engine's HTTP clients (remote embedders in
 * embed/remote/http.ts, chat providers in llm/http.ts): bounded attempts, exponential
 * backoff with "equal jitter", Retry-After (seconds, HTTP date, or OpenAI's retry-after-ms),
 * and a wait that ends the moment the caller's signal aborts.
 *
 * The loop knows nothing of HTTP status codes or error wording: each caller's attempt
 * function fetches, decides what is a success, what is worth retrying and what is final, and
 * builds its own error messages. Where the response body is read is the caller's choice too,
 * and it matters: the embedders read the whole JSON body inside the attempt (a body cut
 * mid-read is retried), while the chat clients return the Response with its body unread, so
 * a stream that has started is never retried — the user would see text twice.
 */
import { abortError } from './abort';

/** How often and how long to retry. */
export interface RetryPolicy {
  /** Total attempts, including the first. */
  maxAttempts: number;
  /** First backoff delay, doubled per retry up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * The longest Retry-After waited for. A longer one is cut to this, or, when the caller
   * passes `retryAfterTooLong`, ends the retries with the error it returns.
   */
  maxRetryAfterMs: number;
}

/** Injected for tests: how to wait (no real time in tests) and the jitter source. */
export interface RetryDeps {
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
}

/** What one attempt came to: a value, or a failure worth another try (final failures are thrown). */
export type Attempt<T, E extends Error = Error> =
  | { value: T }
  | {
      retry: E;
      /** The server's Retry-After, when it sent one; else the backoff decides. */
      retryAfterMs?: number | undefined;
      /** Short reason for `onRetry` ("HTTP 503", "ECONNREFUSED"). */
      reason: string;
    };

/** The loop's settings beside the attempt function. */
export interface RetryOptions<E extends Error = Error> extends RetryDeps {
  policy: RetryPolicy;
  signal?: AbortSignal | undefined;
  /** The error thrown on abort (before an attempt and during a wait); default: the signal's Error reason, else an AbortError. */
  abortError?: ((signal: AbortSignal | undefined) => unknown) | undefined;
  /** Give up instead of waiting when Retry-After exceeds `policy.maxRetryAfterMs`; absent, the wait is cut to that. */
  retryAfterTooLong?: ((failure: E, retryAfterMs: number) => Error) | undefined;
  /** The error thrown when the attempts run out; default: the last failure as it is. */
  gaveUp?: ((failure: E, attempts: number) => Error) | undefined;
  /** Called before each wait, for logs/UI ("retrying in 2 s"); `attempt` counts retries from 1. */
  onRetry?: ((info: { attempt: number; delayMs: number; reason: string }) => void) | undefined;
}

/** The error an aborted signal stands for: its reason when that is an Error, else a plain AbortError. */
export function defaultAbortError(signal: AbortSignal | undefined): Error {
  return abortError(signal, 'The operation was aborted', 'any');
}

/** Sleep that rejects (with `abortError(signal)`) as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal, abortError: (signal: AbortSignal | undefined) => unknown = defaultAbortError): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** One Retry-After value (delta seconds or an HTTP date) in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (DECIMAL.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The server's wish from response headers: `retry-after-ms` (OpenAI) first, then `retry-after`. */
export function retryAfterFromHeaders(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms')?.trim();
  if (ms && DECIMAL.test(ms)) return Number(ms);
  return parseRetryAfter(headers.get('retry-after'), now);
}

/** Backoff before retry `attempt` (0-based): exponential, capped, with "equal jitter" (half fixed, half random). */
export function backoffDelay(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exp / 2 + (exp / 2) * random());
}

/**
 * Run `attempt` until it yields a value, throws, or the policy's attempts run out; between
 * tries wait the server's Retry-After or the backoff. Aborting the signal ends it at once,
 * before the next attempt or in the middle of a wait.
 */
export async function withRetry<T, E extends Error = Error>(attempt: (n: number) => Promise<Attempt<T, E>>, o: RetryOptions<E>): Promise<T> {
  const abortError = o.abortError ?? defaultAbortError;
  const wait = o.sleep ?? ((ms: number, signal?: AbortSignal) => abortableSleep(ms, signal, abortError));
  const random = o.random ?? Math.random;
  for (let n = 0; ; n++) {
    if (o.signal?.aborted) throw abortError(o.signal);
    const out = await attempt(n);
    if ('value' in out) return out.value;
    if (n + 1 >= o.policy.maxAttempts) throw o.gaveUp ? o.gaveUp(out.retry, n + 1) : out.retry;
    let delayMs = out.retryAfterMs ?? backoffDelay(n, o.policy, random);
    if (out.retryAfterMs !== undefined && out.retryAfterMs > o.policy.maxRetryAfterMs) {
      if (o.retryAfterTooLong) throw o.retryAfterTooLong(out.retry, out.retryAfterMs);
      delayMs = o.policy.maxRetryAfterMs;
    }
    o.onRetry?.({ attempt: n + 1, delayMs, reason: out.reason });
    await wait(delayMs, o.signal);
  }
}
