import { describe, expect, it } from 'vitest';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { flushThreshold } from '../../electron/engine/compaction/flush-threshold';
import { contextBudget, keepBudget, windowThresholds } from '../../electron/engine/compaction/thresholds';

describe('compaction budgets for the window (one rule, compaction/thresholds.ts)', () => {
  const d = CompactionSchema.parse({});
  it('leaves the defaults alone for large windows', () => {
    for (const w of [80_000, 128_000, 200_000]) {
      expect(windowThresholds(w, d)).toMatchObject({ reserve: 20_000, reserveCapped: false, compactAt: w - 20_000, flushAt: w - 24_000 });
      expect(keepBudget(d, w)).toBe(20_000);
    }
  });
  it('caps reserve, keep and the flush soft threshold on a small window, so the thresholds stay positive', () => {
    expect(contextBudget(8192, d)).toBe(6144);
    expect(flushThreshold(8192, d)).toBe(5325);
    expect(keepBudget(d, 8192)).toBe(2048);
  });
});
