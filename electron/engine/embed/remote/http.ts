/**
 * The HTTP plumbing every remote embedder shares: JSON POST with a timeout and the caller's
 * AbortSignal, retry with exponential backoff and jitter on 429/5xx and dropped connections
 * (honouring Retry-After), and errors that say what to do — a 401/403 names the config key
 * or environment variable the API key came from.
 */
import { throwIfAborted } from '../vector';

/** Settings shared by the OpenAI, Gemini and Voyage embedders. */
export interface RemoteOptions {
  apiKey: string;
  /** Where the key came from, for error messages: "OPENAI_API_KEY" or "memorySearch.remote.apiKey". */
  keySource: string;
  /** API root override (self-hosted gateways, proxies, test fixtures). */
  baseUrl?: string;
  /** Model name; the provider's default when absent. */
  model?: string;
  /** Extra request headers (config `memorySearch.remote.headers`). */
  headers?: Record<string, string>;
  /**
   * Vector size when the model is not in the provider's table (else probed with one
   * request). Gemini also asks the API for this size (`outputDimensionality`).
   */
  dims?: number;
  /** Texts per request (each provider has its own limit and default). */
  batchSize?: number;
  /** Retries after the first attempt (default 5). */
  maxRetries?: number;
  /** First backoff delay (default 500 ms), doubled per retry up to `maxDelayMs` (default 30 s). */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
  /** Injected for tests: fetch, randomness for jitter, and the sleep between retries. */
  fetch?: typeof fetch;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A failed remote call; `status` is the HTTP status (0 for a network failure). */
export class RemoteEmbedError extends Error {
  constructor(
    readonly provider: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RemoteEmbedError';
  }
}

/** Sleep that ends early (rejecting) when the signal fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Parse Retry-After (delta seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Backoff before retry `attempt` (0-based): exponential with "equal jitter" (half fixed, half random). */
export function backoffDelay(attempt: number, opts: Pick<RemoteOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const cap = opts.maxDelayMs ?? 30_000;
  const exp = Math.min(cap, (opts.baseDelayMs ?? 500) * 2 ** attempt);
  return exp / 2 + (exp / 2) * (opts.random ?? Math.random)();
}

const isRetryableStatus = (s: number): boolean => s === 429 || s === 408 || s >= 500;

/** What a provider adds to the shared request logic. */
export interface ProviderWire {
  /** "openai" | "gemini" | "voyage" (error messages). */
  provider: string;
  /** Pull the human message out of the provider's error body. */
  errorMessage(status: number, body: unknown, text: string): string;
  /** Some APIs (Gemini) report a bad key as 400; let the provider say so. */
  isAuthError?(status: number, body: unknown): boolean;
}

/**
 * POST `body` as JSON and return the parsed JSON response, retrying transient failures.
 * Never retries 4xx other than 408/429: those will not get better by waiting.
 */
export async function postJson(
  wire: ProviderWire,
  url: string,
  body: unknown,
  headers: Record<string, string>,
  opts: RemoteOptions,
  signal?: AbortSignal,
): Promise<unknown> {
  const doFetch = opts.fetch ?? fetch;
  const sleep = opts.sleep ?? abortableSleep;
  const maxRetries = opts.maxRetries ?? 5;
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(signal);
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? 60_000);
    const reqSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let failure: RemoteEmbedError;
    let retryAfter: number | undefined;
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers, ...opts.headers },
        body: JSON.stringify(body),
        signal: reqSignal,
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (res.ok) {
        if (json === undefined) throw new RemoteEmbedError(wire.provider, res.status, `${wire.provider} embeddings: the response is not JSON: ${text.slice(0, 200)}`);
        return json;
      }
      const detail = wire.errorMessage(res.status, json, text);
      if (res.status === 401 || res.status === 403 || wire.isAuthError?.(res.status, json)) {
        throw new RemoteEmbedError(
          wire.provider,
          res.status,
          `${wire.provider} embeddings: the API key was refused (HTTP ${res.status}: ${detail}). ` +
            `Check ${opts.keySource}${opts.keySource.includes('.') ? '' : ' (environment variable)'} or set agents.defaults.memorySearch.remote.apiKey.`,
        );
      }
      failure = new RemoteEmbedError(wire.provider, res.status, `${wire.provider} embeddings: HTTP ${res.status}: ${detail}`);
      if (!isRetryableStatus(res.status)) throw failure;
      retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    } catch (err) {
      if (err instanceof RemoteEmbedError && !isRetryableStatus(err.status)) throw err;
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : err;
      if (err instanceof RemoteEmbedError) failure = err;
      else {
        // Network failure or our timeout: worth retrying, the connection may come back.
        const e = err as Error & { cause?: { code?: string } };
        const why = timeout.aborted ? `no answer within ${opts.timeoutMs ?? 60_000} ms` : (e.cause?.code ?? e.message);
        failure = new RemoteEmbedError(wire.provider, 0, `${wire.provider} embeddings: cannot reach ${new URL(url).origin} (${why})`);
      }
    }
    if (attempt >= maxRetries) {
      failure.message += ` (gave up after ${attempt + 1} attempts)`;
      throw failure;
    }
    const delay = Math.min(opts.maxDelayMs ?? 30_000, retryAfter ?? backoffDelay(attempt, opts));
    await sleep(delay, signal);
  }
}

/** Join a base URL and a path without doubling or losing slashes. */
export function joinUrl(base: string, suffix: string): string {
  return `${base.replace(/\/+$/, '')}/${suffix.replace(/^\/+/, '')}`;
}
