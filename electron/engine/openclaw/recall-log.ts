/**
 * Where Cairn keeps what it did inside OpenClaw, and the appends that write it: one line per
 * prompt in `openclaw-recall/<agentId>/<sessionId>.jsonl` (what Cairn recalled for it, or why
 * nothing) and one line per OpenClaw compaction in `openclaw-compactions.jsonl`. Both live in
 * Cairn's own folder for the state dir (`ctx.state().cairnDir`: `<data>/state-dirs/<key>/`
 * for an OpenClaw dir — the folder connect keeps its backup in, computed by
 * config/data-dir.ts's foreignStateHome — and `<state>/cairn/` for a dir Cairn created), never
 * in OpenClaw's dir. Written only by Cairn's side of the bridge (openclaw/bridge.ts), never by
 * OpenClaw's process. Appends only (one O_APPEND write per line, so concurrent bridges of two
 * OpenClaw processes interleave whole lines); files 0600 and folders 0700: a recall log quotes
 * the user's messages and memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { OpenClawCompactionRecord, OpenClawRecallEntry } from '../../../shared/types/openclaw-recall';
import type { EngineContext } from '../core/context';

/** Folder name of the recall logs inside Cairn's folder for the state dir. */
export const RECALL_LOG_DIR = 'openclaw-recall';
/** File name of the compaction records inside Cairn's folder for the state dir. */
export const COMPACTION_LOG_FILE = 'openclaw-compactions.jsonl';

/**
 * An id as a single, harmless path segment: OpenClaw's agent and session ids are
 * `[A-Za-z0-9._-]` in practice, but a hostile or odd one must never climb out of the folder.
 */
function segment(id: string, what: string): string {
  const s = id.replace(/[^A-Za-z0-9._-]/g, '_');
  // A name of dots only (`.`, `..`) would name this folder or its parent.
  if (/^\.*$/.test(s)) throw new Error(`the ${what} ${JSON.stringify(id)} cannot name a recall log`);
  return s.slice(0, 200);
}

/** Cairn's folder for the context's state dir (where the recall logs and compaction records live). */
export function openClawLogHome(ctx: EngineContext): string {
  return ctx.state().cairnDir;
}

/** The recall log of one OpenClaw session: `<home>/openclaw-recall/<agentId>/<sessionId>.jsonl`. */
export function recallLogPath(ctx: EngineContext, agentId: string, sessionId: string): string {
  return path.join(openClawLogHome(ctx), RECALL_LOG_DIR, segment(agentId, 'agent id'), `${segment(sessionId, 'session id')}.jsonl`);
}

/** The compaction records of the state dir: `<home>/openclaw-compactions.jsonl`. */
export function compactionLogPath(ctx: EngineContext): string {
  return path.join(openClawLogHome(ctx), COMPACTION_LOG_FILE);
}

/** Create `dir` (and missing parents) as 0700; an existing folder is left as it is. */
function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Append one JSON line to `file` (created 0600) in a single O_APPEND write. */
function appendLine(file: string, value: unknown): void {
  ensurePrivateDir(path.dirname(file));
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT, 0o600);
  try {
    fs.writeSync(fd, Buffer.from(`${JSON.stringify(value)}\n`, 'utf8'));
  } finally {
    fs.closeSync(fd);
  }
}

/** Append a prompt's recall to its session's log; returns the file written. */
export function appendRecallEntry(ctx: EngineContext, entry: OpenClawRecallEntry): string {
  const file = recallLogPath(ctx, entry.agentId, entry.sessionId);
  appendLine(file, entry);
  return file;
}

/** Append one OpenClaw compaction record; returns the file written. */
export function appendCompactionRecord(ctx: EngineContext, record: OpenClawCompactionRecord): string {
  const file = compactionLogPath(ctx);
  appendLine(file, record);
  return file;
}
