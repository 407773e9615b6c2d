/**
 * OpenClaw 2026.9's SQLite session store, read through the SessionStore seam (issue 12.1):
 * sessions list/show/prune/compact --dry-run on the bytes the real OpenClaw 2026.9.6 wrote
 * (tests/fixtures/openclaw-2026.9.6/state), writes refused with the reason, OpenClaw's new
 * events seen while it writes (rollback journal and WAL), both layouts in one dir, doctor —
 * and OpenClaw's dir never gains or changes a file.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { runDoctor } from '../../electron/engine/app/doctor';
import { copyOpenClawState } from '../helpers/openclaw-state';
import { makeSession } from '../helpers/sessions';

const WRITER = path.join(__dirname, '..', 'helpers', 'openclaw-writer-child.mjs');

/** OpenClaw's own message count per session (its `session_transcript_index_state`), read from the bytes it wrote. */
function openclawMessageCounts(dbFile: string): Record<string, number> {
  const db = new Database(fs.readFileSync(dbFile), { readonly: true });
  const rows = db.prepare('SELECT session_id, active_message_count AS n FROM session_transcript_index_state').all() as { session_id: string; n: number }[];
  db.close();
  return Object.fromEntries(rows.map((r) => [r.session_id, r.n]));
}

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false }));
  return { code, stdout, stderr };
}

function withEngine<T>(stateDir: string, fn: (e: Engine, api: ReturnType<typeof createDirectClient>) => Promise<T>): Promise<T> {
  const engine = createEngine({ stateDir });
  return fn(engine, createDirectClient(engine)).finally(() => engine.dispose());
}

/** Run the OpenClaw stand-in; resolves once its event is committed (its "written" line). */
function openclawWrites(dbFile: string, sessionId: string, text: string, mode?: 'wal') {
  const child = spawn(process.execPath, [WRITER, dbFile, sessionId, text, ...(mode ? [mode] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const written = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => b.toString().includes('written') && resolve());
    child.on('exit', (code) => code !== 0 && reject(new Error(`writer exited with ${code}`)));
  });
  return { child, written, exited: once(child, 'exit') };
}

describe('OpenClaw 2026.9 SQLite session store', () => {
  it('cairn sessions list shows all six sessions with OpenClaw\'s message counts, marked as in the SQLite store', async () => {
    const oc = copyOpenClawState();
    const expected = openclawMessageCounts(oc.dbFile);
    expect(Object.keys(expected)).toHaveLength(6);
    const r = await cli(['sessions', 'list', '--json', '--state-dir', oc.stateDir]);
    expect(r.code).toBe(0);
    const { sessions } = JSON.parse(r.stdout) as { sessions: { id: string; store: string; messages: number; key: string; compactions: number; contextWindow: number }[] };
    expect(Object.fromEntries(sessions.map((s) => [s.id, s.messages]))).toEqual(expected);
    expect(new Set(sessions.map((s) => s.store))).toEqual(new Set(['openclaw-sqlite']));
    expect(sessions.find((s) => s.id === 's1-alpha')).toMatchObject({ key: 'agent:main:explicit:s1-alpha', compactions: 1, contextWindow: 40000 });
  });

  it('sessions show decodes zstd events, numbers them seq + 1 and accepts the version-4 header', async () => {
    const oc = copyOpenClawState();
    const r = await cli(['sessions', 'show', 's1-alpha', '--json', '--state-dir', oc.stateDir]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { header: { version: number }; total: number; malformed: unknown[]; entries: { line: number; type: string; role?: string; preview: string }[] };
    expect(j.header.version).toBe(4);
    expect(j.total).toBe(45); // 46 events, the header is not an entry
    expect(j.malformed).toEqual([]);
    // seq 9 of s1-alpha is stored zstd-compressed: the tool result of the big listing.
    const e = j.entries.find((x) => x.line === 10);
    expect(e).toMatchObject({ type: 'message', role: 'toolResult' });
    expect(e?.preview).toContain('row 000001 codeword QUARTZ-1');
  });

  it('prune --dry-run and compact --dry-run work; compacting or chatting is refused with the reason; the dir is unchanged', async () => {
    const oc = copyOpenClawState();
    const before = oc.tree();
    const prune = await cli(['prune', 's5-anth', '--dry-run', '--json', '--state-dir', oc.stateDir]);
    expect(prune.code).toBe(0);
    expect(JSON.parse(prune.stdout).results.length).toBeGreaterThan(0);
    const plan = await cli(['compact', 's5-anth', '--dry-run', '--json', '--state-dir', oc.stateDir]);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout)).toMatchObject({ sessionId: 's5-anth', possible: true });
    const run = await cli(['compact', 's5-anth', '--state-dir', oc.stateDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("session s5-anth is in OpenClaw's SQLite session store");
    await withEngine(oc.stateDir, async (_e, api) => {
      await expect(api['chat.send']({ sessionId: 's1-alpha', text: '/compact' })).rejects.toMatchObject({ code: 'read_only', message: expect.stringContaining('which Cairn only reads') });
    });
    expect(oc.tree()).toEqual(before);
  });

  it('a transcript version newer than 4 is read as far as its entries are known, with a note; an undecodable event is reported by line', async () => {
    const oc = copyOpenClawState();
    const db = new Database(oc.dbFile);
    const header = db.prepare("SELECT event_json FROM transcript_events WHERE session_id = 's2-beta' AND seq = 0").get() as { event_json: string };
    db.prepare("UPDATE transcript_events SET event_json = ? WHERE session_id = 's2-beta' AND seq = 0").run(header.event_json.replace('"version":4', '"version":5'));
    // A zstd event of s1-alpha whose bytes are not zstd (the CHECKs only ask for a non-empty blob).
    db.prepare("UPDATE transcript_events SET event_zstd = x'00112233' WHERE session_id = 's1-alpha' AND seq = 9").run();
    db.close();
    await withEngine(oc.stateDir, async (_e, api) => {
      const { sessions } = await api['sessions.list']({});
      expect(sessions.find((s) => s.id === 's2-beta')?.notes).toEqual([expect.stringContaining('transcript version 5 is newer than the 4 Cairn knows')]);
      expect(sessions.find((s) => s.id === 's2-beta')?.messages).toBe(16);
      expect((await api['app.status']({ checks: false })).warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^session s2-beta .*transcript version 5 is newer/)]));
      const s1 = await api['sessions.entries']({ sessionId: 's1-alpha' });
      expect(s1.malformed).toEqual([expect.objectContaining({ line: 10, error: expect.stringContaining('event_zstd does not decompress') })]);
      expect(s1.total).toBe(44);
    });
  });

  it('follows OpenClaw while it writes: its new event is announced and shown, nothing is added to its dir', async () => {
    const oc = copyOpenClawState();
    await withEngine(oc.stateDir, async (engine, api) => {
      await api['sessions.list']({}); // the Sessions page is open
      const before = (await api['sessions.entries']({ sessionId: 's2-beta' })).total;
      const changed = new Promise((resolve) => engine.events.on('sessions.changed', resolve));
      const w = openclawWrites(oc.dbFile, 's2-beta', 'a live question from OpenClaw');
      await w.exited;
      expect(await changed).toMatchObject({ agentId: 'main', store: 'openclaw-sqlite' });
      const after = await api['sessions.entries']({ sessionId: 's2-beta', offset: before });
      expect(after.total).toBe(before + 1);
      expect(after.entries[0]?.preview).toBe('a live question from OpenClaw');
    });
    expect([...oc.tree().keys()].filter((p) => p.includes('openclaw-agent.sqlite-'))).toEqual([]);
  });

  it("while OpenClaw holds a WAL open, reads it in place: no copy in Cairn's data dir, nothing new in OpenClaw's", async () => {
    const oc = copyOpenClawState();
    const w = openclawWrites(oc.dbFile, 's3-gamma', 'written through the WAL', 'wal');
    try {
      await w.written;
      // What OpenClaw itself has beside its database now: the -wal and -shm it created.
      const withWal = oc.tree();
      expect(withWal.has(`${path.join('agents', 'main', 'agent', 'openclaw-agent.sqlite')}-wal`)).toBe(true);
      await withEngine(oc.stateDir, async (_e, api) => {
        const s3 = (await api['sessions.list']({})).sessions.find((s) => s.id === 's3-gamma');
        expect(s3?.messages).toBe(17); // OpenClaw's 16 + the one still only in the -wal
        const page = await api['sessions.entries']({ sessionId: 's3-gamma', offset: 28 });
        expect(page.entries.map((e) => e.preview)).toEqual(['written through the WAL']);
      });
      expect([...oc.tree().keys()].sort()).toEqual([...withWal.keys()].sort());
      const copies = (fs.readdirSync(oc.dataDir, { recursive: true }) as string[]).filter((p) => p.includes('openclaw-agent.sqlite'));
      expect(copies).toEqual([]);
    } finally {
      w.child.stdin.end();
      await w.exited;
    }
    // OpenClaw stopped (its -wal checkpointed away): read from the main file alone.
    await withEngine(oc.stateDir, async (_e, api) => {
      expect((await api['sessions.entries']({ sessionId: 's3-gamma', offset: 28 })).entries.map((e) => e.preview)).toEqual(['written through the WAL']);
    });
    expect([...oc.tree().keys()].filter((p) => p.includes('openclaw-agent.sqlite-'))).toEqual([]);
  });

  it("a -wal without its -shm (SQLite would create the -shm) is read from a copy in Cairn's data dir, and doctor says why", async () => {
    const oc = copyOpenClawState();
    const w = openclawWrites(oc.dbFile, 's3-gamma', 'only in the -wal', 'wal');
    await w.written;
    // A crashed OpenClaw's leftovers as another tool would leave them: the -wal, no -shm.
    fs.copyFileSync(`${oc.dbFile}-wal`, path.join(oc.dataDir, 'wal'));
    fs.copyFileSync(oc.dbFile, path.join(oc.dataDir, 'db'));
    w.child.stdin.end();
    await w.exited;
    fs.copyFileSync(path.join(oc.dataDir, 'db'), oc.dbFile);
    fs.copyFileSync(path.join(oc.dataDir, 'wal'), `${oc.dbFile}-wal`);
    fs.rmSync(path.join(oc.dataDir, 'db'));
    fs.rmSync(path.join(oc.dataDir, 'wal'));
    const before = oc.tree();
    await withEngine(oc.stateDir, async (engine, api) => {
      expect((await api['sessions.entries']({ sessionId: 's3-gamma', offset: 28 })).entries.map((e) => e.preview)).toEqual(['only in the -wal']);
      const check = (await runDoctor(engine.ctx, { native: false })).find((c) => c.id === 'session-stores');
      expect(check?.detail).toContain("read from a copy in Cairn's data dir because a -wal without its -shm is beside it");
    });
    expect(oc.tree()).toEqual(before);
  });

  it('a WAL-mode store of a stopped OpenClaw (no -wal left) is read without creating its -wal or -shm', async () => {
    const oc = copyOpenClawState();
    const db = new Database(oc.dbFile);
    db.pragma('journal_mode = WAL');
    db.close(); // a clean close checkpoints and removes the -wal; the header stays WAL
    expect(fs.readFileSync(oc.dbFile)[18]).toBe(2);
    const before = oc.tree();
    await withEngine(oc.stateDir, async (_e, api) => {
      expect((await api['sessions.list']({})).sessions).toHaveLength(6);
      expect((await api['sessions.entries']({ sessionId: 's4-delta' })).total).toBe(31);
    });
    expect(oc.tree()).toEqual(before);
  });

  it('both layouts in one dir are listed, each saying which store it is in; doctor counts each', async () => {
    const oc = copyOpenClawState();
    makeSession(2, { dir: path.join(oc.stateDir, 'agents', 'main', 'sessions'), id: 'cairn-own' });
    await withEngine(oc.stateDir, async (engine, api) => {
      const { sessions } = await api['sessions.list']({});
      expect(sessions).toHaveLength(7);
      expect(sessions.find((s) => s.id === 'cairn-own')?.store).toBe('jsonl');
      expect(sessions.filter((s) => s.store === 'openclaw-sqlite')).toHaveLength(6);
      const check = (await runDoctor(engine.ctx, { native: false })).find((c) => c.id === 'session-stores');
      expect(check?.status).toBe('ok');
      expect(check?.detail).toContain('main: JSONL: 1 session (');
      expect(check?.detail).toContain("main: OpenClaw's SQLite store (read-only): 6 sessions (");
    });
  });
});
