import { describe, expect, it } from 'vitest';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { effectiveReserve, shouldCompactAfterReply, shouldCompactBeforeSend } from '../../electron/engine/compaction/thresholds';
import { withOverflowRetry } from '../../electron/engine/compaction/overflow-retry';
import { findIdentifiers, dropContained } from '../../electron/engine/compaction/identifiers';
import { ContextOverflowError } from '../../electron/engine/llm/types';

const settings = (over: Record<string, unknown> = {}) => CompactionSchema.parse(over);

describe('compaction triggers', () => {
  it('effective reserve is max(reserveTokens, reserveTokensFloor)', () => {
    expect(effectiveReserve(settings())).toBe(20000);
    expect(effectiveReserve(settings({ reserveTokens: 30000 }))).toBe(30000);
  });

  it('(a) after a reply: usage above window − reserve compacts; the estimate is used without usage', () => {
    const s = settings();
    expect(shouldCompactAfterReply({ contextWindow: 100000, settings: s, usageTokens: 80000, estimatedTokens: 1 }).compact).toBe(false);
    expect(shouldCompactAfterReply({ contextWindow: 100000, settings: s, usageTokens: 80001, estimatedTokens: 1 })).toMatchObject({ compact: true, threshold: 80000 });
    expect(shouldCompactAfterReply({ contextWindow: 100000, settings: s, estimatedTokens: 90000 })).toMatchObject({ compact: true, tokens: 90000 });
  });

  it('(b) before sending: (history + system + prompt) × 1.2 must fit', () => {
    const s = settings();
    expect(shouldCompactBeforeSend({ contextWindow: 100000, settings: s, historyTokens: 60000, systemTokens: 4000, promptTokens: 2000 })).toMatchObject({ compact: false, tokens: 79200 });
    expect(shouldCompactBeforeSend({ contextWindow: 100000, settings: s, historyTokens: 60000, systemTokens: 4000, promptTokens: 3000 })).toMatchObject({ compact: true, tokens: 80400 });
  });

  it('(c) on context overflow: compact and retry, at most 3 times', async () => {
    let calls = 0;
    const compactions: number[] = [];
    await expect(
      withOverflowRetry(
        async () => {
          calls++;
          throw new ContextOverflowError('too long');
        },
        async (n) => {
          compactions.push(n);
          return true;
        },
      ),
    ).rejects.toBeInstanceOf(ContextOverflowError);
    expect(calls).toBe(4);
    expect(compactions).toEqual([1, 2, 3]);
    let second = 0;
    expect(await withOverflowRetry(async () => (++second < 2 ? Promise.reject(new ContextOverflowError('x')) : 'ok'), async () => true)).toBe('ok');
    await expect(withOverflowRetry(async () => Promise.reject(new ContextOverflowError('x')), async () => false)).rejects.toThrow(/found nothing more to compact/);
    await expect(withOverflowRetry(async () => Promise.reject(new Error('other')), async () => true)).rejects.toThrow('other');
  });
});

describe('identifiers for the extract', () => {
  it('finds paths, URLs, hashes, uuids, ids, host:port and ports, exactly as written', () => {
    const text = 'See https://example.com/a/b?x=1, commit 3f9a2c1d in ~/.openclaw/workspace and /var/log/app.log; uuid 5f0c2a1e-7b3d-4c8e-9a61-2d4f8b0e1c37; ticket JIRA-1234; call toolu_01A; listen 127.0.0.1:8787, port 5432; C:\\Users\\ana\\x.txt; image/png.';
    const ids = dropContained(findIdentifiers(text));
    for (const id of ['https://example.com/a/b?x=1', '3f9a2c1d', '~/.openclaw/workspace', '/var/log/app.log', '5f0c2a1e-7b3d-4c8e-9a61-2d4f8b0e1c37', 'JIRA-1234', 'toolu_01A', '127.0.0.1:8787', 'port 5432', 'C:\\Users\\ana\\x.txt']) {
      expect(ids).toContain(id);
    }
    expect(ids).not.toContain('/png');
  });
});
