/**
 * The discovery record of a running engine (server/engine-record.ts): private, follows a
 * switch of state dir, refreshed on a settings reload and on a warning, and a clean stop
 * removes only this process's record. The host is a small stand-in with the members the record reads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishEngine } from '../../electron/server/engine-record';
import { ENGINE_RECORD_FILE, type EngineRecord } from '../../electron/server/engine-discovery';
import { processStart } from '../../electron/engine/util/process-alive';
import { tmpDir } from '../helpers/tmp';

function fakeHost(first: string) {
  let dir = first;
  const warnings: string[] = [];
  const listeners = new Set<(event: string, payload: unknown) => void>();
  return {
    current: () => ({ ctx: { version: '9.9.9', warnings: () => [...warnings], state: () => ({ stateDir: dir, createdBy: 'cairn' as const }) } }),
    events: {
      onAny(l: (event: string, payload: unknown) => void) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
    warnings,
    emit(event: string, next?: string) {
      if (next) dir = next;
      for (const l of listeners) l(event, {});
    },
  };
}

const recordIn = (dir: string) => path.join(dir, 'cairn', ENGINE_RECORD_FILE);
const read = (dir: string) => JSON.parse(fs.readFileSync(recordIn(dir), 'utf8')) as EngineRecord;

describe('engine discovery record', () => {
  it('is written private, moves with a state dir switch, is refreshed on a reload and removed on close', () => {
    const a = fs.realpathSync(tmpDir('cairn-rec-a-'));
    const b = fs.realpathSync(tmpDir('cairn-rec-b-'));
    const host = fakeHost(a);
    const pub = publishEngine(host, { port: 4321, token: 't'.repeat(32), recordDir: (dir) => path.join(dir, 'cairn') });
    const rec = read(a);
    expect(rec).toMatchObject({ v: 1, version: '9.9.9', pid: process.pid, port: 4321, stateDir: a, token: 't'.repeat(32) });
    expect(rec.start).toBe(processStart(process.pid));
    if (process.platform !== 'win32') expect(fs.statSync(recordIn(a)).mode & 0o777).toBe(0o600);
    host.emit('state.switched', b);
    expect(fs.existsSync(recordIn(a))).toBe(false);
    expect(read(b).stateDir).toBe(b);
    fs.writeFileSync(recordIn(b), JSON.stringify({ ...read(b), configAt: 0 }), { mode: 0o600 });
    host.emit('config.changed');
    const reloadedAt = read(b).configAt;
    expect(reloadedAt).toBeGreaterThan(0);
    expect(read(b).warnings).toEqual([]);
    // A warning is published at once; the settings were not reloaded by it.
    host.warnings.push('memory watcher: EMFILE');
    host.emit('engine.warning');
    expect(read(b)).toMatchObject({ warnings: ['memory watcher: EMFILE'], configAt: reloadedAt });
    pub.close();
    expect(fs.existsSync(recordIn(b))).toBe(false);
  });

  it('leaves the record of another process alone on close', () => {
    const a = fs.realpathSync(tmpDir('cairn-rec-c-'));
    const pub = publishEngine(fakeHost(a), { port: 1, token: 't'.repeat(32), recordDir: (dir) => path.join(dir, 'cairn') });
    fs.writeFileSync(recordIn(a), JSON.stringify({ ...read(a), pid: process.pid + 1 }), { mode: 0o600 });
    pub.close();
    expect(read(a).pid).toBe(process.pid + 1);
  });
});
