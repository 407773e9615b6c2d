/**
 * The HTTP plumbing every remote embedder shares: JSON POST with a timeout and the caller's
 * AbortSignal, retry with exponential backoff and jitter on 429/5xx and dropped connections
 * (honouring Retry-After; the loop itself is util/http-retry.ts), and errors that say what
 * to do — a 401/403 names the config key or environment variable the API key came from.
 */
import { retryAfterFromHeaders, withRetry, type Attempt } from '../../util/http-retry';
import { EngineError } from '../../core/errors';
import { SUGGESTION_TEXT } from '../../config/suggestions';

/** Settings shared by the OpenAI, Gemini and Voyage embedders. */
export interface RemoteOptions {
  apiKey: string;
  /** Where the key came from, for error messages: "OPENAI_API_KEY" or "memory.search.remote.apiKey". */
  keySource: string;
  /** API root override (self-hosted gateways, proxies, test fixtures). */
  baseUrl?: string;
  /** Model name; the provider's default when absent. */
  model?: string;
  /** Extra request headers (config `memory.search.remote.headers`). */
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
export class RemoteEmbedError extends EngineError {
  constructor(
    readonly provider: string,
    readonly status: number,
    message: string,
  ) {
    super('unavailable', message);
    this.name = 'RemoteEmbedError';
  }
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
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  // The whole body is read inside the attempt, so a reply cut mid-body is retried like a dropped connection.
  const attempt = async (): Promise<Attempt<unknown, RemoteEmbedError>> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const reqSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
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
        return { value: json };
      }
      const detail = wire.errorMessage(res.status, json, text);
      if (res.status === 401 || res.status === 403 || wire.isAuthError?.(res.status, json)) {
        throw new RemoteEmbedError(
          wire.provider,
          res.status,
          `${wire.provider} embeddings: the API key was refused (HTTP ${res.status}: ${detail}). ` +
            `Check ${opts.keySource}${opts.keySource.includes('.') ? '' : ' (environment variable)'} or ${SUGGESTION_TEXT.remoteApiKey()}.`,
        );
      }
      const failure = new RemoteEmbedError(wire.provider, res.status, `${wire.provider} embeddings: HTTP ${res.status}: ${detail}`);
      if (!isRetryableStatus(res.status)) throw failure;
      return { retry: failure, retryAfterMs: retryAfterFromHeaders(res.headers), reason: `HTTP ${res.status}` };
    } catch (err) {
      if (err instanceof RemoteEmbedError) throw err; // the final failures above
      if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : err;
      // Network failure or our timeout: worth retrying, the connection may come back.
      const e = err as Error & { cause?: { code?: string } };
      const why = timeout.aborted ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message);
      return { retry: new RemoteEmbedError(wire.provider, 0, `${wire.provider} embeddings: cannot reach ${new URL(url).origin} (${why})`), reason: why };
    }
  };
  return withRetry(attempt, {
    // A Retry-After is honoured up to the longest backoff delay, then cut to it.
    policy: { maxAttempts: (opts.maxRetries ?? 5) + 1, baseDelayMs: opts.baseDelayMs ?? 500, maxDelayMs, maxRetryAfterMs: maxDelayMs },
    signal,
    sleep: opts.sleep,
    random: opts.random,
    gaveUp: (failure, attempts) => {
      failure.message += ` (gave up after ${attempts} attempts)`;
      return failure;
    },
  });
}

/** Join a base URL and a path without doubling or losing slashes. */
export function joinUrl(base: string, suffix: string): string {
  return `${base.replace(/\/+$/, '')}/${suffix.replace(/^\/+/, '')}`;
}
