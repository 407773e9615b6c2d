/**
 * OpenClaw's SQLite store with hostile rows and broken files: a zstd event that inflates to
 * 1 GiB is cut at its declared size, a frame declaring a 2 GiB window is refused before
 * anything is allocated, a seq of 9,999,999 costs nothing, and a truncated, zeroed, 0-byte
 * database or a directory in its place is reported by `sessions list` (in --json and on
 * stderr) and by `sessions show` with the cause — and no file of OpenClaw's dir changes.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { decompress } from 'fzstd';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { sessionStores } from '../../electron/engine/sessions/store';
import { inflateBounded, InflateError } from '../../electron/engine/sessions/store/zstd-bounded';
import { cairnInProcess as cli } from '../helpers/openclaw-2026';
import { copyOpenClawState } from '../helpers/openclaw-state';
import { hugeWindowFrame, rleBomb } from '../helpers/zstd-bomb';

function edit(dbFile: string, fn: (db: Database.Database) => void): void {
  const db = new Database(dbFile);
  fn(db);
  db.close();
}

describe('zstd events inflate within their budget', () => {
  it('inflates the real events OpenClaw wrote as fzstd does, and refuses a bomb and a huge window without allocating them', () => {
    const oc = copyOpenClawState();
    const db = new Database(oc.dbFile, { readonly: true });
    const rows = db.prepare('SELECT event_zstd AS z, event_utf8_bytes AS n FROM transcript_events WHERE event_zstd IS NOT NULL').all() as { z: Buffer; n: number }[];
    db.close();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(Buffer.from(inflateBounded(r.z, r.n)).equals(Buffer.from(decompress(r.z)))).toBe(true);
    // 33 KB of RLE blocks that would be 1 GiB: stopped at the 4 MiB budget.
    const bomb = rleBomb(8192);
    expect(bomb.length).toBeLessThan(40_000);
    expect(() => inflateBounded(bomb, 4 << 20)).toThrow(/inflates past the 4194304 bytes allowed/);
    expect(() => inflateBounded(hugeWindowFrame(), 4 << 20)).toThrow(/declares a \d+-byte window/);
    expect(() => inflateBounded(Buffer.concat([rleBomb(1), rleBomb(1)]), 4 << 20)).toThrow(InflateError);
    expect(() => inflateBounded(rleBomb(3).subarray(0, 10), 4 << 20)).toThrow(/truncated/);
  });
});

describe("hostile rows in OpenClaw's store", () => {
  it('a 1 GiB zstd bomb is one malformed line naming its declared size; the session and the others are listed', async () => {
    const oc = copyOpenClawState();
    edit(oc.dbFile, (db) => {
      db.pragma('ignore_check_constraints = ON');
      db.prepare("UPDATE transcript_events SET event_zstd = ? WHERE session_id = 's1-alpha' AND seq = 9").run(rleBomb(8192));
    });
    const before = oc.tree();
    const engine = createEngine({ stateDir: oc.stateDir });
    try {
      const api = createDirectClient(engine);
      const { sessions } = await api['sessions.list']({});
      expect(sessions).toHaveLength(6);
      expect(sessions.find((s) => s.id === 's1-alpha')?.malformed).toBe(1);
      const s1 = await api['sessions.entries']({ sessionId: 's1-alpha' });
      expect(s1.malformed).toEqual([expect.objectContaining({ line: 10, error: expect.stringMatching(/within its declared \d+ bytes: inflates past/) })]);
    } finally {
      await engine.dispose();
    }
    expect(oc.tree()).toEqual(before);
  });

  it('an event at seq 9,999,999 keeps its line 10,000,000 and costs no line for the gap', async () => {
    const oc = copyOpenClawState();
    edit(oc.dbFile, (db) => {
      db.pragma('foreign_keys = OFF');
      db.prepare("UPDATE transcript_events SET seq = 9999999 WHERE session_id = 's2-beta' AND seq = 28").run();
    });
    const engine = createEngine({ stateDir: oc.stateDir });
    try {
      const api = createDirectClient(engine);
      const s2 = (await api['sessions.list']({})).sessions.find((s) => s.id === 's2-beta');
      expect(s2?.messages).toBe(16);
      const page = await api['sessions.entries']({ sessionId: 's2-beta', offset: 27 });
      expect(page.entries.map((e) => e.line)).toEqual([10_000_000]);
      const store = sessionStores(engine.ctx).find((s) => s.kind === 'openclaw-sqlite');
      const t = store!.load(store!.find('s2-beta')!);
      expect(t.rawLines.length).toBe(29); // one per event, not ten million
    } finally {
      await engine.dispose();
    }
  });
});

/** The ways a database file breaks, each applied to a fresh copy. */
const BREAKS: Record<string, { apply: (file: string) => void; cause: RegExp }> = {
  truncated: { apply: (f) => fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2)), cause: /truncated: its header says \d+ pages/ },
  zeroed: { apply: (f) => fs.writeFileSync(f, Buffer.alloc(fs.statSync(f).size)), cause: /not an SQLite database \(its first bytes are zeros\)/ },
  'zero bytes': { apply: (f) => fs.writeFileSync(f, ''), cause: /the file is empty \(0 bytes\)/ },
  'a directory': {
    apply: (f) => {
      fs.rmSync(f);
      fs.mkdirSync(f);
    },
    cause: /a directory is where the database file should be/,
  },
};

describe("a broken OpenClaw database is reported, never taken for 'no sessions'", () => {
  for (const [name, { apply, cause }] of Object.entries(BREAKS)) {
    it(`${name}: sessions list warns in --json and on stderr, show names the cause, nothing in the dir changes`, async () => {
      const oc = copyOpenClawState();
      apply(oc.dbFile);
      const before = oc.tree();
      const list = await cli(['sessions', 'list', '--json', '--state-dir', oc.stateDir]);
      expect(list.code).toBe(0);
      const j = JSON.parse(list.stdout) as { sessions: unknown[]; unreadable: { store: string; source: string; error: string }[] };
      expect(j.sessions).toEqual([]);
      expect(j.unreadable).toEqual([{ store: 'openclaw-sqlite', source: oc.dbFile, error: expect.stringMatching(cause) }]);
      expect(list.stderr).toMatch(new RegExp(`warning: .*openclaw-agent\\.sqlite: .*${cause.source}`));
      const text = await cli(['sessions', 'list', '--state-dir', oc.stateDir]);
      expect(text.stderr).toMatch(cause);
      const show = await cli(['sessions', 'show', 's1-alpha', '--state-dir', oc.stateDir]);
      expect(show.code).toBe(1);
      expect(show.stderr).toMatch(cause);
      expect(show.stderr).not.toContain('no transcript for session');
      expect(oc.tree()).toEqual(before);
    });
  }
});
