/**
 * Where Cairn keeps what it did inside OpenClaw, and the appends that write it: one line per
 * prompt in `openclaw-recall/<agentId>/<sessionId>.jsonl` (what Cairn recalled for it, or why
 * nothing) and one line per OpenClaw compaction in `openclaw-compactions.jsonl`. Both live in
 * Cairn's own folder for the state dir (`ctx.state().cairnDir`: `<data>/state-dirs/<key>/`
 * for an OpenClaw dir — the folder connect keeps its backup in, computed by
 * config/data-dir.ts's foreignStateHome — and `<state>/cairn/` for a dir Cairn created), never
 * in OpenClaw's dir. Written only by Cairn's side of the bridge (openclaw/bridge.ts), never by
 * OpenClaw's process. One file per session, whatever the id's characters (logSegment); the
 * user's text in it redacted as the audit redacts (recall.ts). Appends only (one O_APPEND write per line, so concurrent bridges of two
 * OpenClaw processes interleave whole lines); files 0600 and folders 0700: a recall log quotes
 * the user's messages and memory.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { OpenClawCompactionRecord, OpenClawRecallEntry } from '../../../shared/types/openclaw-recall';
import type { EngineContext } from '../core/context';

/** Folder name of the recall logs inside Cairn's folder for the state dir. */
export const RECALL_LOG_DIR = 'openclaw-recall';
/** File name of the compaction records inside Cairn's folder for the state dir. */
export const COMPACTION_LOG_FILE = 'openclaw-compactions.jsonl';

/** The longest file-name part an id gives (the rest of a long id goes into a hash). */
const MAX_SEGMENT = 200;
const SAFE = /^[A-Za-z0-9._-]+$/;

/**
 * An id as a single, harmless path segment, one per id (two ids never share a file): an id of
 * `[A-Za-z0-9._-]` only — OpenClaw's ids in practice — is its own name; any other (`a/b`, an
 * odd character, dots only, too long) is escaped byte by byte as `~XX`, so it holds a `~` no
 * plain name has and `a/b` (`a~2Fb`) never meets `a_b`. Past {@link MAX_SEGMENT} characters
 * the name keeps its start and ends in `~~` and a hash of the whole id.
 */
export function logSegment(id: string): string {
  if (SAFE.test(id) && !/^\.*$/.test(id) && id.length <= MAX_SEGMENT) return id;
  let out = '';
  for (const byte of Buffer.from(id, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += byte < 0x80 && /[A-Za-z0-9-]/.test(c) ? c : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (out.length <= MAX_SEGMENT) return out;
  return `${out.slice(0, MAX_SEGMENT - 66)}~~${crypto.createHash('sha256').update(id, 'utf8').digest('hex')}`;
}

/**
 * The name the first recall logs gave an id (`[^A-Za-z0-9._-]` → `_`, cut at 200): `a/b` and
 * `a_b` shared it. Read (never written) for what was logged before, each line kept only when
 * its own ids match. Null for a name that was never possible (dots only).
 */
export function legacyLogSegment(id: string): string | null {
  const s = id.replace(/[^A-Za-z0-9._-]/g, '_');
  return /^\.*$/.test(s) ? null : s.slice(0, 200);
}

/** Cairn's folder for the context's state dir (where the recall logs and compaction records live). */
export function openClawLogHome(ctx: EngineContext): string {
  return ctx.state().cairnDir;
}

/** The recall log of one OpenClaw session: `<home>/openclaw-recall/<agentId>/<sessionId>.jsonl` (names: logSegment). */
export function recallLogPath(ctx: EngineContext, agentId: string, sessionId: string): string {
  return path.join(openClawLogHome(ctx), RECALL_LOG_DIR, logSegment(agentId), `${logSegment(sessionId)}.jsonl`);
}

/** Where the first recall logs put this session's lines, when that is another file (see legacyLogSegment); else null. */
export function legacyRecallLogPath(ctx: EngineContext, agentId: string, sessionId: string): string | null {
  const agent = legacyLogSegment(agentId);
  const session = legacyLogSegment(sessionId);
  if (agent === null || session === null) return null;
  const legacy = path.join(openClawLogHome(ctx), RECALL_LOG_DIR, agent, `${session}.jsonl`);
  return legacy === recallLogPath(ctx, agentId, sessionId) ? null : legacy;
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
