/**
 * AbortErrors built one way: every cancelled operation of the engine throws an
 * Error named 'AbortError' — what fetch throws — so the dispatcher maps each to `cancelled`
 * and callers test one name. Not plain `signal.throwIfAborted()`: that throws the signal's
 * reason as is (a DOMException saying "This operation was aborted" when there is none), and
 * the message a user sees should say what was cancelled ("indexing cancelled").
 */

/**
 * Which reason of an aborted signal is passed through as the error:
 * - 'abort' (default): only one that already is an AbortError (a cancellation forwarded
 *   from further up); any other reason (a timeout's, an overflow's) becomes a new AbortError
 *   with `message`, because the code that set it handles it separately;
 * - 'any': any Error reason, as is (where the reason is the whole story: an embedder or a
 *   retry loop aborted by its caller with the error that caused it).
 */
export type KeepReason = 'abort' | 'any';

/** The error an aborted `signal` stands for (see {@link KeepReason}). */
export function abortError(signal: AbortSignal | undefined, message = 'The operation was aborted', keep: KeepReason = 'abort'): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && (keep === 'any' || reason.name === 'AbortError')) return reason;
  const err = new Error(message);
  err.name = 'AbortError';
  return err;
}

/** Throw {@link abortError} when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, message?: string, keep?: KeepReason): void {
  if (signal?.aborted) throw abortError(signal, message, keep);
}

/** True when `err` is a cancellation (an AbortError, or any error once `signal` has fired). */
export function isAbortError(err: unknown, signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted) || (err instanceof Error && err.name === 'AbortError');
}
