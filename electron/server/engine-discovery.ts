/**
 * Finding the engine that serves a state dir now (`cairn serve` or the desktop app): its
 * discovery record (written by engine-record.ts), trusted only when it is a private file of
 * this user, of this version, for this state dir, written by a process that is still that
 * process (its start time tells a reused pid apart), and no settings file changed since the
 * engine loaded them. `cairn search`'s thin client (bin/thin-client.mjs) asks these rules
 * through the bundle of electron/cli/thin-rules.ts: no copy in JavaScript.
 * Light on purpose (node built-ins, config/state-home.ts, util/process-alive.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { resolveStateDir, settingsFiles, stateHome } from '../engine/config/state-home';
import { processExists, processStart } from '../engine/util/process-alive';

/** The record's file name, next to `serve-token` (server/token-file.ts). */
export const ENGINE_RECORD_FILE = 'serve-engine.json';

/** What the record holds; `v` changes when the shape does. */
export interface EngineRecord {
  v: 1;
  version: string;
  pid: number;
  /** The process's start time as the OS counts it (util/process-alive.ts processStart); null elsewhere. */
  start: string | null;
  port: number;
  token: string;
  /** fs.realpathSync of the state dir served. */
  stateDir: string;
  /** Epoch ms when the engine last loaded its settings: a settings file newer than this is not what it serves. */
  configAt: number;
  /**
   * The engine's own warnings (ctx.warnings()): `cairn search --json` lists a fresh context's
   * too, which a long-running engine's may not match, so a client asks in-process while any are held.
   * Not checked on read: a client that needs it treats a missing list as "not known".
   */
  warnings: string[];
}

function isRecord(r: unknown): r is EngineRecord {
  const o = r as Partial<EngineRecord> | null;
  return (
    typeof o === 'object' && o !== null && o.v === 1 && typeof o.version === 'string' && Number.isInteger(o.pid) && Number.isInteger(o.port) &&
    typeof o.token === 'string' && typeof o.stateDir === 'string' && typeof o.configAt === 'number'
  );
}

/** The record in `cairnDir` of the engine serving `stateDir` (a real path) at `version`, or null. */
function readLiveRecord(stateDir: string, cairnDir: string, settingsDir: string, version: string): EngineRecord | null {
  const file = path.join(cairnDir, ENGINE_RECORD_FILE);
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return null;
  }
  // Only a private file of ours: another user could otherwise point us at their server.
  if (!st.isFile() || (st.mode & 0o077) !== 0 || (typeof process.getuid === 'function' && st.uid !== process.getuid())) return null;
  let rec: unknown;
  try {
    rec = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (!isRecord(rec) || rec.version !== version || rec.stateDir !== stateDir) return null;
  // The same process as wrote it: alive, and not another one that got its pid since.
  if (!rec.start || !processExists(rec.pid) || processStart(rec.pid) !== rec.start) return null;
  // Settings edited since the engine loaded them: it would search with the old ones.
  for (const f of settingsFiles(stateDir, settingsDir)) {
    try {
      if (fs.statSync(f).mtimeMs > rec.configAt) return null;
    } catch {
      // Absent: nothing newer.
    }
  }
  return rec;
}

/** A live engine for a state dir, and a way to read its record again (after a call). */
export interface ServingEngine {
  record: EngineRecord;
  /** The record as it is now (null when it is no longer trusted). */
  reread(): EngineRecord | null;
}

/**
 * The engine serving the state dir `flag` (or `$CAIRN_STATE_DIR`, or `~/.cairn`, as the CLI
 * resolves it) at `version`, or null when none can be trusted (or the dir does not exist).
 */
export function findServingEngine(flag: string | undefined, version: string, env: NodeJS.ProcessEnv = process.env): ServingEngine | null {
  let stateDir: string;
  try {
    stateDir = fs.realpathSync(resolveStateDir({ flag, env }));
  } catch {
    return null;
  }
  const { cairnDir, settingsDir } = stateHome(stateDir, env);
  const reread = () => readLiveRecord(stateDir, cairnDir, settingsDir, version);
  const record = reread();
  return record ? { record, reread } : null;
}
