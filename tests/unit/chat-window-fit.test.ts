import { describe, expect, it } from 'vitest';
import { fitCompactionToWindow } from '../../electron/engine/chat/window-fit';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { flushThreshold } from '../../electron/engine/compaction/flush-threshold';
import { contextBudget } from '../../electron/engine/compaction/thresholds';

describe('compaction budgets for the window', () => {
  const d = CompactionSchema.parse({});
  it('leaves the defaults alone for large windows', () => {
    expect(fitCompactionToWindow(d, 200_000)).toEqual(d);
    expect(fitCompactionToWindow(d, 128_000)).toEqual(d);
  });
  it('caps reserve, keep and the flush soft threshold on a small window, so the thresholds stay positive', () => {
    const f = fitCompactionToWindow(d, 8192);
    expect(f).toMatchObject({ reserveTokens: 2048, reserveTokensFloor: 2048, keepRecentTokens: 2048, memoryFlush: { softThresholdTokens: 819 } });
    expect(contextBudget(8192, f)).toBe(6144);
    expect(flushThreshold(8192, f)).toBe(5325);
    // One rule for the whole engine: the raw defaults get the same thresholds (thresholds.ts caps them too).
    expect(contextBudget(8192, d)).toBe(6144);
    expect(flushThreshold(8192, d)).toBe(5325);
  });
});
