import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSessionEntry, readSessionIndex, updateSessionEntry } from '../../electron/engine/transcript/sessions-index';
import { copyFixture, FIXTURE_SESSION_ID } from '../helpers/fixtures';
import { tmpDir } from '../helpers/tmp';

describe('sessions.json', () => {
  it('updates only the asked fields of the right entry and keeps every other key and entry', async () => {
    const { sessionsDir } = copyFixture();
    const file = path.join(sessionsDir, 'sessions.json');
    const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
    raw['agent:main:other'] = { sessionId: 'other', custom: [1, 2] };
    raw.notASession = 42;
    fs.writeFileSync(file, JSON.stringify(raw));
    const next = await updateSessionEntry(file, FIXTURE_SESSION_ID, (e) => ({ compactionCount: (e.compactionCount ?? 0) + 1, totalTokens: 1234, updatedAt: 1 }));
    expect(next).toMatchObject({ compactionCount: 2, totalTokens: 1234, memoryFlushCompactionCount: 0, lastChannel: 'telegram' });
    const after = readSessionIndex(file);
    expect(after['agent:main:other']).toEqual({ sessionId: 'other', custom: [1, 2] });
    expect((after as Record<string, unknown>).notASession).toBe(42);
    expect(findSessionEntry(after, FIXTURE_SESSION_ID)?.key).toBe('agent:main:main');
    expect(fs.readdirSync(sessionsDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('creates the index and the entry (under the given key) when missing; a broken file is a clear error', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'sessions.json');
    expect(readSessionIndex(file)).toEqual({});
    await updateSessionEntry(file, 's1', { memoryFlushAt: 5, memoryFlushCompactionCount: 0 }, { key: 'agent:main:s1' });
    expect(readSessionIndex(file)).toEqual({ 'agent:main:s1': { sessionId: 's1', memoryFlushAt: 5, memoryFlushCompactionCount: 0 } });
    fs.writeFileSync(file, '{ not json');
    expect(() => readSessionIndex(file)).toThrow(/sessions\.json: not valid JSON/);
  });
});
