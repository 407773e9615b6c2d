/**
 * OpenClaw's WAL-mode store read in place while OpenClaw writes it: a real second process
 * keeps the database open in WAL mode and appends events in a loop (busy_timeout 0, frequent
 * checkpoints) while Cairn lists and pages the session over and over. Cairn makes no copy of
 * the database (its data dir holds none), creates nothing in OpenClaw's dir, always counts
 * at least what the writer had committed, and the writer never gets SQLITE_BUSY; once the
 * engine is disposed and the writer exits, the writer's own close removes its -wal and -shm.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { runDoctor } from '../../electron/engine/app/doctor';
import { copyOpenClawState } from '../helpers/openclaw-state';

const WRITER = path.join(__dirname, '..', '..', 'testkit', 'openclaw-live-writer-child.mjs');

/** Every file under `dir` whose name holds `needle` (a copy of the database, wherever it went). */
function copiesUnder(dir: string, needle: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((d) => d.isFile() && d.name.includes(needle)).map((d) => path.join(d.parentPath, d.name));
}

/** The live writer: `committed()` is the count it last reported; `stop()` resolves with its totals once it exited. */
function startWriter(dbFile: string, sessionId: string) {
  const child = spawn(process.execPath, [WRITER, dbFile, sessionId], { stdio: ['pipe', 'pipe', 'inherit'] });
  let committed = 0;
  let first: () => void = () => {};
  const ready = new Promise<void>((resolve) => (first = resolve));
  let finish: (v: { written: number; busy: number }) => void = () => {};
  const done = new Promise<{ written: number; busy: number }>((resolve) => (finish = resolve));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('committed ')) {
      committed = Number(line.slice(10));
      first();
    } else if (line.startsWith('done ')) finish(JSON.parse(line.slice(5)) as { written: number; busy: number });
  });
  return {
    ready,
    committed: () => committed,
    async stop() {
      child.stdin.write('stop\n');
      const totals = await done;
      expect(await exited).toBe(0);
      return totals;
    },
  };
}

describe("OpenClaw's live WAL store, read in place", () => {
  it('lists and pages while OpenClaw writes: no copy, nothing new in its dir, counts right, no SQLITE_BUSY for the writer', async () => {
    const oc = copyOpenClawState();
    const agentDir = path.dirname(oc.dbFile);
    const w = startWriter(oc.dbFile, 's3-gamma');
    await w.ready;
    const names = fs.readdirSync(agentDir).sort();
    expect(names).toEqual(['openclaw-agent.sqlite', 'openclaw-agent.sqlite-shm', 'openclaw-agent.sqlite-wal']);
    const engine = createEngine({ stateDir: oc.stateDir });
    const api = createDirectClient(engine);
    let lastSeen = 0;
    try {
      for (let round = 0; round < 40; round++) {
        const atLeast = 16 + w.committed();
        const s3 = (await api['sessions.list']({})).sessions.find((s) => s.id === 's3-gamma');
        expect(s3?.messages).toBeGreaterThanOrEqual(Math.max(atLeast, lastSeen));
        lastSeen = s3?.messages ?? 0;
        const page = await api['sessions.entries']({ sessionId: 's3-gamma', offset: 0, limit: 5 });
        expect(page.total).toBeGreaterThanOrEqual(28 + (lastSeen - 16));
        expect(fs.readdirSync(agentDir).sort()).toEqual(names);
        expect(copiesUnder(oc.dataDir, 'openclaw-agent.sqlite')).toEqual([]);
      }
      const check = (await runDoctor(engine.ctx, { native: false })).find((c) => c.id === 'session-stores');
      expect(check?.detail).toContain('read in place while OpenClaw writes (WAL)');
    } finally {
      await engine.dispose(); // closes Cairn's connection
    }
    const totals = await w.stop();
    expect(totals.busy).toBe(0);
    expect(totals.written).toBeGreaterThan(0);
    // The writer closed its connection: its -wal and -shm are gone (no Cairn connection kept them).
    expect(fs.readdirSync(agentDir)).toEqual(['openclaw-agent.sqlite']);
    const again = createEngine({ stateDir: oc.stateDir });
    try {
      const s3 = (await createDirectClient(again)['sessions.list']({})).sessions.find((s) => s.id === 's3-gamma');
      expect(s3?.messages).toBe(16 + totals.written);
    } finally {
      await again.dispose();
    }
    expect(copiesUnder(oc.dataDir, 'openclaw-agent.sqlite')).toEqual([]);
    expect(fs.readdirSync(agentDir)).toEqual(['openclaw-agent.sqlite']);
  });
});
