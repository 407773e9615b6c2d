/**
 * One HTTP POST with bounded retries, shared by the OpenAI-compatible and Anthropic clients.
 * Retries 408/409/429/5xx and network failures with exponential backoff and jitter, honours
 * Retry-After (and OpenAI's retry-after-ms), never retries 401/403 or a context overflow, and
 * stops at once when the caller's signal aborts. The retry loop itself is util/http-retry.ts;
 * only the response headers are awaited inside it, so a stream that started is never retried.
 */
import { retryAfterFromHeaders, withRetry, type Attempt, type RetryDeps, type RetryPolicy } from '../util/http-retry';
import { abortError, httpError, LlmHttpError, type ErrorContext } from './errors';
import { isAbortError } from '../util/abort';

export type { RetryPolicy } from '../util/http-retry';

/** 4 attempts, 0.5 s base delay doubling to at most 20 s, Retry-After honoured up to 60 s (longer: the error is thrown). */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 };

/** Injected for tests: the fetch to use, how to wait, and the jitter source. */
export interface HttpDeps extends RetryDeps {
  fetch?: typeof fetch;
}

/** One POST: where, what, how to retry, how to name errors. */
export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal?: AbortSignal | undefined;
  retry?: Partial<RetryPolicy> | undefined;
  deps?: HttpDeps | undefined;
  errorContext: ErrorContext;
  /** Called before each wait, for logs/UI ("retrying in 2 s"). */
  onRetry?: ((info: { attempt: number; delayMs: number; reason: string }) => void) | undefined;
}


/**
 * POST `body` as JSON and return the successful Response (body unread, for streaming).
 * Throws AuthError / ContextOverflowError / LlmHttpError / AbortError.
 */
export async function postJson(opts: PostOptions): Promise<Response> {
  const doFetch = opts.deps?.fetch ?? fetch;
  const payload = JSON.stringify(opts.body);
  const attempt = async (): Promise<Attempt<Response, LlmHttpError>> => {
    let res: Response;
    try {
      res = await doFetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        body: payload,
        signal: opts.signal ?? null,
      });
    } catch (err) {
      if (isAbortError(err, opts.signal)) throw abortError(opts.signal);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      return { retry: new LlmHttpError(`${opts.errorContext.what}: could not connect (${why}); is the server running at ${opts.url}?`, undefined, true), reason: why };
    }
    if (res.ok) return { value: res };
    let text = '';
    try {
      text = await res.text();
    } catch (err) {
      if (isAbortError(err, opts.signal)) throw abortError(opts.signal);
    }
    const e = httpError(res.status, text, opts.errorContext);
    if (!(e instanceof LlmHttpError) || !e.retryable) throw e;
    return { retry: e, retryAfterMs: retryAfterFromHeaders(res.headers), reason: `HTTP ${res.status}` };
  };
  return withRetry(attempt, {
    policy: { ...DEFAULT_RETRY, ...opts.retry },
    signal: opts.signal,
    sleep: opts.deps?.sleep,
    random: opts.deps?.random,
    abortError,
    retryAfterTooLong: (e, ra) => new LlmHttpError(`${e.message} (the server asks to retry after ${Math.ceil(ra / 1000)} s; try again later)`, e.status, false),
    onRetry: opts.onRetry,
  });
}
