/**
 * The shared retry loop (electron/engine/util/http-retry.ts) on its own: Retry-After in its
 * three forms, the capped jittered backoff, both ways of treating a too-long Retry-After,
 * the give-up error, and cancellation before an attempt and in the middle of a wait. The
 * HTTP callers (embedders, chat clients) are tested against fixture servers elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { abortableSleep, backoffDelay, parseRetryAfter, retryAfterFromHeaders, withRetry, type Attempt, type RetryPolicy } from '../../electron/engine/util/http-retry';

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

/** Sleeps are recorded, never waited: tests do not depend on time. */
function recorder(): { slept: number[]; sleep: (ms: number) => Promise<void> } {
  const slept: number[] = [];
  return { slept, sleep: async (ms) => void slept.push(ms) };
}

/** An attempt function that plays the outcomes in order and counts its calls. */
function script<T>(outcomes: Attempt<T>[]): { calls: number; attempt: () => Promise<Attempt<T>> } {
  const s = {
    calls: 0,
    attempt: async () => {
      const out = outcomes[s.calls++];
      if (!out) throw new Error('script ran out');
      return out;
    },
  };
  return s;
}

const busy = (retryAfterMs?: number): Attempt<string> => ({ retry: new Error('HTTP 503: busy'), retryAfterMs, reason: 'HTTP 503' });

describe('Retry-After and backoff', () => {
  it('reads Retry-After as seconds or an HTTP date, retry-after-ms first, and ignores junk', () => {
    const now = Date.parse('2026-11-30T10:00:00Z');
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(' 1.5 ')).toBe(1500);
    expect(parseRetryAfter('Mon, 30 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 30 Nov 2026 09:00:00 GMT', now)).toBe(0); // a date in the past: go now
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '7' }), now)).toBe(7000);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': 'x', 'retry-after': '9' }), now)).toBe(9000);
    expect(retryAfterFromHeaders(new Headers({}), now)).toBeUndefined();
  });

  it('backs off exponentially with equal jitter, capped', () => {
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, policy, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 10].map((a) => backoffDelay(a, policy, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });
});

describe('withRetry', () => {
  it('waits Retry-After when given, else the backoff, and reports each retry', async () => {
    const s = script([busy(2000), busy(), { value: 'ok' }]);
    const t = recorder();
    const retries: unknown[] = [];
    await expect(withRetry(s.attempt, { policy, sleep: t.sleep, random: () => 0, onRetry: (i) => retries.push(i) })).resolves.toBe('ok');
    expect(s.calls).toBe(3);
    expect(t.slept).toEqual([2000, 100]);
    expect(retries).toEqual([
      { attempt: 1, delayMs: 2000, reason: 'HTTP 503' },
      { attempt: 2, delayMs: 100, reason: 'HTTP 503' },
    ]);
  });

  it('cuts a too-long Retry-After to the ceiling, or gives up when the caller asks to', async () => {
    const t = recorder();
    await withRetry(script([busy(3_600_000), { value: 'ok' }]).attempt, { policy, sleep: t.sleep });
    expect(t.slept).toEqual([5000]);
    const s = script([busy(3_600_000), { value: 'ok' }]);
    const err = await withRetry(s.attempt, { policy, sleep: t.sleep, retryAfterTooLong: (e, ms) => new Error(`${e.message} (retry after ${ms / 1000} s)`) }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('HTTP 503: busy (retry after 3600 s)');
    expect(s.calls).toBe(1);
  });

  it('throws the last failure (or the give-up error) after maxAttempts, and final errors at once', async () => {
    const t = recorder();
    const s = script([busy(), busy(), busy(), busy(), busy()]);
    await expect(withRetry(s.attempt, { policy, sleep: t.sleep })).rejects.toThrow('HTTP 503: busy');
    expect(s.calls).toBe(4);
    expect(t.slept).toHaveLength(3);
    const s2 = script([busy(), busy()]);
    await expect(withRetry(s2.attempt, { policy: { ...policy, maxAttempts: 2 }, sleep: t.sleep, gaveUp: (e, n) => new Error(`${e.message} after ${n}`) })).rejects.toThrow('HTTP 503: busy after 2');
    let calls = 0;
    const final = async (): Promise<Attempt<string>> => {
      calls++;
      throw new Error('HTTP 401');
    };
    await expect(withRetry(final, { policy, sleep: t.sleep })).rejects.toThrow('HTTP 401');
    expect(calls).toBe(1);
  });

  it('stops in the middle of a backoff wait when the signal aborts, with the caller’s abort error', async () => {
    const ac = new AbortController();
    const s = script([busy(3_600_000), { value: 'never' }]);
    const p = withRetry(s.attempt, {
      policy: { ...policy, maxRetryAfterMs: 3_600_000 },
      signal: ac.signal,
      onRetry: () => queueMicrotask(() => ac.abort()), // the user cancels during the hour-long wait
      abortError: () => Object.assign(new Error('the model call was cancelled'), { name: 'AbortError' }),
    });
    await expect(p).rejects.toMatchObject({ name: 'AbortError', message: 'the model call was cancelled' });
    expect(s.calls).toBe(1);
  });

  it('does not start an attempt once aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const s = script([{ value: 'x' }]);
    await expect(withRetry(s.attempt, { policy, signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(s.calls).toBe(0);
    await expect(abortableSleep(10, ac.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
