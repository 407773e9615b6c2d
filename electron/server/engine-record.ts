/**
 * The discovery record of a running engine that serves the contract over HTTP (`cairn serve`):
 * which port, which process (pid and its start time, so a reused pid is not mistaken for it),
 * the token, the state dir it serves (its real path), the version and when it last loaded the
 * settings, and the warnings it holds. `cairn search` reads it (bin/thin-client.mjs, with the
 * rules of engine-discovery.ts) to ask the running engine instead of opening SQLite and the
 * index itself. Private like the token file (0600, next to it), written atomically, removed on
 * a clean stop; a record whose process is gone is ignored by readers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../engine/util/atomic-write';
import { processStart } from '../engine/util/process-alive';
import { ENGINE_RECORD_FILE, type EngineRecord } from './engine-discovery';

/** Write the record for this process into `dir` (the token file's folder); false when it could not be written. */
export function writeEngineRecord(dir: string, rec: Omit<EngineRecord, 'v' | 'pid' | 'start'>): boolean {
  const full: EngineRecord = { v: 1, ...rec, pid: process.pid, start: processStart(process.pid) };
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileAtomicSync(path.join(dir, ENGINE_RECORD_FILE), `${JSON.stringify(full)}\n`, { mode: 0o600 });
    return true;
  } catch {
    // A read-only dir: clients just run searches themselves, as without a running engine.
    return false;
  }
}

/** Remove this process's record from `dir` (another process's record is left alone). */
export function removeEngineRecord(dir: string): void {
  const file = path.join(dir, ENGINE_RECORD_FILE);
  try {
    const rec = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<EngineRecord>;
    if (rec.pid === process.pid) fs.rmSync(file, { force: true });
  } catch {
    // Missing or unreadable: nothing of ours to remove.
  }
}

/** What {@link publishEngine} needs of the engine host: the engine serving now and its events. */
interface HostLike {
  current(): { ctx: { version: string; warnings(): string[]; state(): { stateDir: string; createdBy: 'cairn' | 'external' } } };
  events: { onAny(listener: (event: string, payload: unknown) => void): () => void };
}

/**
 * Keep the record of `host` served on `port`: written now, moved when the window switches
 * state dir, refreshed when the settings are reloaded, removed by the returned `close`.
 */
export function publishEngine(host: HostLike, opts: { port: number; token: string; recordDir: (stateDir: string, createdBy: 'cairn' | 'external') => string }): { close(): void } {
  let dir: string | undefined;
  let configAt: number | undefined;
  const publish = (reload: boolean) => {
    const s = host.current().ctx.state();
    const next = opts.recordDir(s.stateDir, s.createdBy);
    if (dir && dir !== next) removeEngineRecord(dir);
    dir = next;
    let real: string;
    try {
      real = fs.realpathSync(s.stateDir);
    } catch {
      return;
    }
    const { ctx } = host.current();
    configAt = reload ? Date.now() : (configAt ?? Date.now());
    writeEngineRecord(next, { version: ctx.version, port: opts.port, token: opts.token, stateDir: real, configAt, warnings: ctx.warnings() });
  };
  publish(true);
  // A warning is written before the answer that raised it is sent (events are synchronous).
  const off = host.events.onAny((event) => {
    if (event === 'state.switched' || event === 'config.changed') publish(true);
    else if (event === 'engine.warning') publish(false);
  });
  return {
    close() {
      off();
      if (dir) removeEngineRecord(dir);
    },
  };
}
