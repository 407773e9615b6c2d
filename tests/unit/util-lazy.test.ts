/**
 * The engine's lazily loaded modules (the index registry behind the search handlers, the
 * built-in search backend, the transcript-change reactions) recover from a failed load: the
 * next call loads again instead of failing forever on the cached rejection, as the search
 * handlers did before.
 */
import { describe, expect, it } from 'vitest';
import { lazy } from '../../electron/engine/util/lazy';

describe('lazy', () => {
  it('shares one load between callers, retries after a failure, then answers synchronously', async () => {
    let calls = 0;
    const l = lazy(async () => {
      calls++;
      if (calls === 1) throw new Error('EMFILE: too many open files');
      return 'registry';
    });
    expect(l.now()).toBeUndefined();
    const [a, b] = await Promise.allSettled([l.get(), l.get()]);
    expect(a).toMatchObject({ status: 'rejected' });
    expect(b).toMatchObject({ status: 'rejected' });
    expect(calls).toBe(1);
    expect(l.now()).toBeUndefined();
    await expect(l.get()).resolves.toBe('registry');
    expect(calls).toBe(2);
    expect(l.now()).toBe('registry');
    await expect(l.get()).resolves.toBe('registry');
    expect(calls).toBe(2);
  });
});
