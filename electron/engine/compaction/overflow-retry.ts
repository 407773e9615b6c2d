/**
 * Trigger (c) of SPEC §4: when the provider says the request does not fit, compact and retry,
 * at most 3 times; then the overflow error goes to the caller with the attempts named.
 */
import { ContextOverflowError } from '../llm/types';

export const MAX_OVERFLOW_RETRIES = 3;

/**
 * Run `call`; on ContextOverflowError run `compact(attempt)` and call again, up to
 * `maxRetries` times. `compact` returns false when there was nothing left to compact, which
 * ends the retries early (retrying the same request would fail the same way).
 */
export async function withOverflowRetry<T>(
  call: () => Promise<T>,
  compact: (attempt: number, error: ContextOverflowError) => Promise<boolean>,
  maxRetries = MAX_OVERFLOW_RETRIES,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof ContextOverflowError) || attempt > maxRetries) throw err;
      const compacted = await compact(attempt, err);
      if (!compacted) {
        throw new ContextOverflowError(`${err.message} (compaction attempt ${attempt} found nothing more to compact)`);
      }
    }
  }
}
