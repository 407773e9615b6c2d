import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { readTranscript } from '../../electron/engine/transcript/read';
import { buildContext } from '../../electron/engine/transcript/context';
import { estimateTokens } from '../../electron/engine/transcript/tokens';
import { seedSessions } from '../helpers/seed-sessions';
import { tmpDir } from '../helpers/tmp';
import type { CairnError } from '../../shared/client';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
});

describe('sessions.overview: the token chart and compaction history', () => {
  it('follows the context the engine rebuilds: drops at each compaction, ends at the current context size', async () => {
    const stateDir = tmpDir();
    const seeded = seedSessions(stateDir, { now: new Date('2025-03-12T15:00:00Z') });
    engine = createEngine({ stateDir });
    const api = createDirectClient(engine);
    const o = await api['sessions.overview']({ sessionId: seeded.compacted.sessionId });

    expect(o.compactions.map((c) => c.ordinal)).toEqual([1, 2]);
    for (const c of o.compactions) {
      expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
      const at = o.points.find((p) => p.entryId === c.id);
      expect(at).toMatchObject({ compaction: true, tokens: c.tokensAfter });
    }
    // The first kept entry of each compaction is an entry of the file.
    const t = readTranscript(seeded.compacted.file);
    for (const c of o.compactions) expect(t.byId.has(c.firstKeptEntryId)).toBe(true);
    // The last point is the context the next call would send (summary + kept + after).
    expect(o.points.at(-1)?.tokens).toBe(estimateTokens(buildContext(t).messages));
    // Points are in file order and every message entry has one.
    const idx = o.points.map((p) => p.index);
    expect(idx).toEqual([...idx].sort((a, b) => a - b));
    expect(o.points.length).toBe(t.entries.filter((e) => e.type === 'message' || e.type === 'compaction').length);
  });

  it('draws the thresholds from the config: flush and compaction lines', async () => {
    const stateDir = tmpDir();
    const seeded = seedSessions(stateDir);
    engine = createEngine({ stateDir });
    const api = createDirectClient(engine);
    const o = await api['sessions.overview']({ sessionId: seeded.sessions[2]!.sessionId });
    // Defaults: window 200k (sessions.json), floor 20k, soft threshold 4k, reserve max(16384, 20000).
    expect(o.contextWindow).toBe(200_000);
    expect(o.flushThreshold).toBe(176_000);
    expect(o.compactionThreshold).toBe(180_000);
    expect(o.compactions).toEqual([]);
  });

  it('says which session is missing and where it looked', async () => {
    const stateDir = tmpDir();
    seedSessions(stateDir);
    engine = createEngine({ stateDir });
    const api = createDirectClient(engine);
    const err = (await api['sessions.overview']({ sessionId: 'nope' }).catch((e: unknown) => e)) as CairnError;
    expect(err.code).toBe('not_found');
    expect(err.message).toContain('nope');
    expect(err.message).toContain('sessions');
  });
});
