/**
 * Sessions OpenClaw 2026.9 moved to cold storage (`agents/<id>/sessions/cold/<sha256>.jsonl.zst`,
 * listed in `session_transcript_cold_archives`) open whole: on the state dir the real OpenClaw
 * wrote (tests/fixtures/openclaw-2026.9.6-dreaming), whose sessions d1-backups, d1-evening and
 * d2-network have no `transcript_events` rows left. A broken archive is named, never shown as
 * an empty session; `cairn doctor` names the store's schema version (a newer one on every
 * session too) and how many sessions are in cold storage. OpenClaw's dir is byte-identical afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { copyDreamingState } from '../helpers/openclaw-dreaming';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

function open(stateDir: string) {
  const engine = createEngine({ stateDir, create: false });
  engines.push(engine);
  return createDirectClient(engine);
}

describe('sessions in cold storage', () => {
  it('show every message of their archived window, read-only', async () => {
    const oc = copyDreamingState();
    const before = oc.tree();
    const api = open(oc.stateDir);
    const page = await api['sessions.entries']({ sessionId: 'd1-backups', offset: 0, limit: 2000 });
    const texts = JSON.stringify(page);
    expect(page.total).toBeGreaterThan(5);
    expect(texts).toMatch(/[Gg]lacier/);
    const evening = await api['sessions.entries']({ sessionId: 'd1-evening', offset: 0, limit: 2000 });
    expect(evening.total).toBeGreaterThan(2);
    await engines.pop()!.dispose();
    expect(oc.tree()).toEqual(before);
  });

  it('a missing archive is named, not shown as an empty session', async () => {
    const oc = copyDreamingState();
    const cold = path.join(oc.stateDir, 'agents', 'main', 'sessions', 'cold');
    for (const f of fs.readdirSync(cold)) fs.rmSync(path.join(cold, f));
    const api = open(oc.stateDir);
    const page = await api['sessions.entries']({ sessionId: 'd1-backups', offset: 0, limit: 2000 });
    expect(JSON.stringify(page)).toMatch(/cold archive b929855a[0-9a-f]+\.jsonl\.zst: cannot be read \(ENOENT\)/);
  });
});

describe("doctor on OpenClaw's session store", () => {
  it('names the schema version and the sessions in cold storage', async () => {
    const oc = copyDreamingState();
    const api = open(oc.stateDir);
    const check = (await api['doctor.run']({})).checks.find((c) => c.id === 'session-stores');
    expect(check?.status).toBe('ok');
    expect(check?.detail).toMatch(/main: OpenClaw's SQLite store \(read-only\): 7 sessions, 3 with older messages in cold storage .*schema version 23\)/);
  });

  it('a schema newer than Cairn knows is named in doctor and on every session, never shown as if whole', async () => {
    const oc = copyDreamingState();
    const db = new Database(path.join(oc.stateDir, 'agents', 'main', 'agent', 'openclaw-agent.sqlite'));
    db.pragma('user_version = 99');
    db.close();
    const api = open(oc.stateDir);
    const check = (await api['doctor.run']({})).checks.find((c) => c.id === 'session-stores');
    expect(check?.status).toBe('warn');
    expect(check?.detail).toMatch(/schema version 99, newer than the 23 Cairn knows/);
    const list = await api['sessions.list']({});
    expect(list.sessions.length).toBe(7);
    for (const s of list.sessions) expect(s.notes?.join(' ')).toMatch(/schema version 99/);
    // The window's banner comes from app.status (the quick status the shell loads).
    const status = await api['app.status']({ checks: false });
    expect(status.storeWarnings).toEqual([expect.stringMatching(/^main: OpenClaw's session store has schema version 99, newer than the 23 Cairn knows/u)]);
  });
});
