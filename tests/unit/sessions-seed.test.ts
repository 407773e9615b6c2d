import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../electron/engine/transcript/read';
import { readSessionIndex, sessionEntries } from '../../electron/engine/transcript/sessions-index';
import { buildContext } from '../../electron/engine/transcript/context';
import { seedLargeSession, seedSessions } from '../helpers/seed-sessions';
import { tmpDir } from '../helpers/tmp';

describe('seed sessions: OpenClaw/pi v3 transcripts the engine reads as written', () => {
  it('writes four sessions with header, 8-hex ids chained by parentId, and a sessions.json entry each', () => {
    const stateDir = tmpDir();
    const seeded = seedSessions(stateDir, { now: new Date('2025-03-12T15:00:00Z') });
    expect(seeded.sessions).toHaveLength(4);
    const index = sessionEntries(readSessionIndex(`${seeded.sessionsDir}/sessions.json`));
    expect(index.map((e) => e.entry.sessionId).sort()).toEqual(seeded.sessions.map((s) => s.sessionId).sort());
    for (const s of seeded.sessions) {
      const t = readTranscript(s.file);
      expect(t.malformed).toEqual([]);
      expect(t.header).toMatchObject({ type: 'session', version: 3, id: s.sessionId });
      expect(t.entries).toHaveLength(s.entries);
      t.entries.forEach((e, i) => {
        expect(e.id).toMatch(/^[0-9a-f]{8}$/);
        expect(e.parentId).toBe(i === 0 ? null : t.entries[i - 1]!.id);
        expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
      });
      // Every tool call has its result right after it (never split).
      const ctx = buildContext(t).messages;
      ctx.forEach((m, i) => {
        if (m.role === 'toolResult') expect(ctx[i - 1]?.role).toBe('assistant');
      });
    }
  });

  it('the long session has two compactions (the second carrying the first forward), an image, cache-ttl markers and big tool outputs', () => {
    const stateDir = tmpDir();
    const { compacted } = seedSessions(stateDir, { now: new Date('2025-03-12T15:00:00Z') });
    const t = readTranscript(compacted.file);
    const comps = t.entries.filter((e) => e.type === 'compaction');
    expect(comps).toHaveLength(2);
    for (const c of comps) expect(t.byId.has(c.firstKeptEntryId as string)).toBe(true);
    expect(String(comps[1]!.summary)).toContain('Updated from the previous summary');
    const text = fs.readFileSync(compacted.file, 'utf8');
    expect(text).toContain('"type":"image"');
    expect(t.entries.filter((e) => e.type === 'custom' && e.customType === 'openclaw.cache-ttl').length).toBeGreaterThan(5);
    const maxResult = Math.max(...buildContext(t).messages.filter((m) => m.role === 'toolResult').map((m) => JSON.stringify(m.content).length));
    expect(maxResult).toBeGreaterThan(50_000);
    // The last model call is 25 minutes before `now`: the pruning TTL (5m) has expired.
    const last = t.entries.filter((e) => e.customType === 'openclaw.cache-ttl').at(-1)!.data as { timestamp: number };
    expect(Date.parse('2025-03-12T15:00:00Z') - last.timestamp).toBeGreaterThan(5 * 60_000);
  });

  it('marks the state dir as Cairn-created and writable, or as foreign read-only when asked', () => {
    const a = tmpDir();
    seedSessions(a);
    expect(JSON.parse(fs.readFileSync(`${a}/cairn/state.json`, 'utf8'))).toMatchObject({ createdBy: 'cairn', writable: true });
    const b = tmpDir();
    seedSessions(b, { access: 'read-only' });
    expect(JSON.parse(fs.readFileSync(`${b}/cairn/state.json`, 'utf8'))).toMatchObject({ createdBy: 'external', writable: false });
  });

  it('seedLargeSession writes exactly the asked number of entries, compacted along the way', () => {
    const stateDir = tmpDir();
    const big = seedLargeSession(stateDir, 3_000);
    const t = readTranscript(big.file);
    expect(t.malformed).toEqual([]);
    expect(t.entries).toHaveLength(3_000);
    expect(t.entries.some((e) => e.type === 'compaction')).toBe(true);
  });
});
