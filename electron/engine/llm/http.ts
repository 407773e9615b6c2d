/**
 * One HTTP POST with bounded retries, shared by the OpenAI-compatible and Anthropic clients.
 * Retries 408/409/429/5xx and network failures with exponential backoff and jitter, honours
 * Retry-After (and OpenAI's retry-after-ms), never retries 401/403 or a context overflow, and
 * stops at once when the caller's signal aborts.
 */
import { abortError, httpError, LlmHttpError, type ErrorContext } from './errors';

/** How often and how long to retry a failed request. */
export interface RetryPolicy {
  /** Total attempts, including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead. */
  maxRetryAfterMs: number;
}

/** 4 attempts, 0.5 s base delay doubling to at most 20 s, Retry-After honoured up to 60 s. */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 };

/** Injected for tests: the fetch to use, how to wait, and the jitter source. */
export interface HttpDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
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

/** Sleep that rejects with an AbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Retry-After as milliseconds: `retry-after-ms`, delta-seconds, or an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Number(ms);
  const ra = headers.get('retry-after');
  if (!ra) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra.trim())) return Number(ra) * 1000;
  const date = Date.parse(ra);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with "equal jitter": half fixed, half random, capped. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exp / 2 + random() * (exp / 2));
}

function isAbort(err: unknown, signal: AbortSignal | undefined): boolean {
  return Boolean(signal?.aborted) || (err as Error)?.name === 'AbortError';
}

/**
 * POST `body` as JSON and return the successful Response (body unread, for streaming).
 * Throws AuthError / ContextOverflowError / LlmHttpError / AbortError.
 */
export async function postJson(opts: PostOptions): Promise<Response> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const doFetch = opts.deps?.fetch ?? fetch;
  const wait = opts.deps?.sleep ?? sleep;
  const random = opts.deps?.random ?? Math.random;
  const payload = JSON.stringify(opts.body);
  for (let attempt = 0; ; attempt++) {
    const last = attempt + 1 >= policy.maxAttempts;
    if (opts.signal?.aborted) throw abortError(opts.signal);
    let res: Response;
    try {
      res = await doFetch(opts.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...opts.headers },
        body: payload,
        signal: opts.signal ?? null,
      });
    } catch (err) {
      if (isAbort(err, opts.signal)) throw abortError(opts.signal);
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code ?? cause?.message ?? (err as Error).message;
      const e = new LlmHttpError(`${opts.errorContext.what}: could not connect (${why}); is the server running at ${opts.url}?`, undefined, true);
      if (last) throw e;
      const delayMs = backoffMs(attempt, policy, random);
      opts.onRetry?.({ attempt: attempt + 1, delayMs, reason: why });
      await wait(delayMs, opts.signal);
      continue;
    }
    if (res.ok) return res;
    let text = '';
    try {
      text = await res.text();
    } catch (err) {
      if (isAbort(err, opts.signal)) throw abortError(opts.signal);
    }
    const e = httpError(res.status, text, opts.errorContext);
    if (!(e instanceof LlmHttpError) || !e.retryable || last) throw e;
    const ra = retryAfterMs(res.headers);
    if (ra !== undefined && ra > policy.maxRetryAfterMs) {
      throw new LlmHttpError(`${e.message} (the server asks to retry after ${Math.ceil(ra / 1000)} s; try again later)`, res.status, false);
    }
    const delayMs = ra ?? backoffMs(attempt, policy, random);
    opts.onRetry?.({ attempt: attempt + 1, delayMs, reason: `HTTP ${res.status}` });
    await wait(delayMs, opts.signal);
  }
}
