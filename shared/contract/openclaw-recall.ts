/**
 * The channel the Sessions view reads Cairn's OpenClaw recall log through: for one session,
 * every prompt the OpenClaw plugin searched Cairn for, what it found and whether it was added
 * to the turn (recall-read.ts reads it; the renderer matches records to user turns).
 */
import { z } from 'zod';
import { ch } from './define';
import { SessionIdSchema } from './sessions';

/** One hit the plugin found for a prompt (added to the turn when the record's outcome is `injected`). */
export interface RecallHitView {
  /** `memory/x.md#L3-L9` or `sessions/<id>.jsonl#L5-L45`. */
  citation: string;
  /** The cited file, relative to the state dir's agent (`memory/x.md`, `sessions/<id>.jsonl`). */
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  /** `memory` or `sessions` (another source name is kept as it is). */
  source: string;
  snippet: string;
}

/** What the plugin did for one prompt. */
export type RecallOutcome = 'injected' | 'none' | 'timeout' | 'error' | 'skipped';

/** One line of the recall log, checked. */
export interface RecallRecordView {
  /** 1-based line of the record in the log file. */
  line: number;
  /** ISO time the recall ran (just before OpenClaw built the prompt). */
  ts: string;
  agentId: string;
  sessionId: string;
  sessionKey?: string;
  /** The start of the user's message, and the sha256 (hex) of its whole text. */
  promptPreview: string;
  promptSha256: string;
  /** What Cairn was asked (the message, or it with the last turns when it is short). */
  query: string;
  outcome: RecallOutcome;
  /** Why there was no recall (timed out after 300 ms, heartbeat turn, Cairn not running…). */
  reason?: string;
  tookMs: number;
  hits: RecallHitView[];
  /** Characters added to the turn (0 unless `injected`). */
  injectedChars: number;
}

/** The recall log of one session. */
export interface SessionRecallLog {
  /** The log file (absolute), whether or not it exists. */
  logPath: string;
  /** False when Cairn has no recall log for this session (not connected, or no prompt since). */
  exists: boolean;
  records: RecallRecordView[];
  /** Lines that could not be read (bad JSON, a field of the wrong kind): skipped, reported. */
  malformed: { line: number; error: string }[];
  /** True when the log was bigger than what is read, so only its latest records are here. */
  truncated: boolean;
}

export const openclawRecallChannels = {
  /** The recall log of `sessionId` (of `agentId`, default: the default agent). */
  'openclaw.recall': ch(
    z
      .object({
        sessionId: SessionIdSchema,
        agentId: z.string().regex(/^[A-Za-z0-9_-]+$/).max(100).optional(),
      })
      .strict(),
  ).returns<SessionRecallLog>(),
};
