/**
 * The session stores' parsed transcripts are an engine member bounded by bytes (issue 11.4):
 * what an engine holds is counted in bytes of the files it read, a file that changes is read
 * again, a transcript bigger than the budget is not held, and engine.dispose() lets go of
 * everything (before, a module-level cache outlived every engine in the process).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { createStoreCaches, storeCaches } from '../../electron/engine/sessions/store/cache';
import type { Transcript } from '../../electron/engine/transcript/types';
import { makeSession } from '../helpers/sessions';
import { tmpDir } from '../helpers/tmp';

describe('session store caches', () => {
  it('hold transcripts by bytes per engine, re-read a changed file, and empty on dispose', async () => {
    const dir = tmpDir();
    const sessionsDir = path.join(dir, 'agents', 'main', 'sessions');
    makeSession(20, { dir: sessionsDir, id: 'one', resultChars: 40 });
    makeSession(200, { dir: sessionsDir, id: 'two', resultChars: 40 });
    const engine = createEngine({ stateDir: dir });
    const other = createEngine({ stateDir: dir });
    const api = createDirectClient(engine);
    const size = (id: string) => fs.statSync(path.join(sessionsDir, `${id}.jsonl`)).size;

    const first = await api['sessions.entries']({ sessionId: 'one', offset: 0, limit: 5 });
    await api['sessions.entries']({ sessionId: 'two', offset: 0, limit: 5 });
    const caches = storeCaches(engine.ctx);
    expect(caches.heldBytes()).toBe(size('one') + size('two'));
    expect(storeCaches(other.ctx).heldBytes()).toBe(0);

    // Another writer appends: the next read sees the new entry, not the cached parse.
    const line = JSON.stringify({ type: 'custom', id: 'feedbeef', parentId: null, timestamp: '2025-03-02T12:00:00Z', customType: 'x', data: {} });
    fs.appendFileSync(path.join(sessionsDir, 'one.jsonl'), `${line}\n`);
    expect((await api['sessions.entries']({ sessionId: 'one', offset: 0, limit: 5 })).total).toBe(first.total + 1);

    await engine.dispose();
    await other.dispose();
    expect(caches.heldBytes()).toBe(0);
    expect(() => storeCaches(engine.ctx)).toThrow(/shutting down/);
  });

  it('drop the least recently used past the budget and never hold one bigger than it', () => {
    const c = createStoreCaches(1000);
    const t = {} as Transcript;
    c.keep('a', 's1', t, 600);
    c.keep('b', 's1', t, 300);
    expect(c.transcript('a', 's1')).toBe(t); // a is now the most recent
    c.keep('c', 's1', t, 300);
    expect([c.transcript('a', 's1'), c.transcript('b', 's1'), c.transcript('c', 's1')]).toEqual([t, undefined, t]);
    expect(c.heldBytes()).toBe(900);
    c.keep('huge', 's1', t, 5000);
    expect(c.transcript('huge', 's1')).toBeUndefined();
    expect(c.transcript('a', 's2')).toBeUndefined(); // another stamp: the file changed
    c.dispose();
    expect(c.heldBytes()).toBe(0);
  });
});
