/**
 * The memory flush as the turn loop calls it: decide (threshold, once per cycle, read-only),
 * run the silent turn, and record `memoryFlushAt` / `memoryFlushCompactionCount` in
 * sessions.json so the next turn of the same cycle skips it.
 */
import fs from 'node:fs';
import type { Message } from '../../../shared/types/messages';
import type { CompactionSettings } from '../config/schema';
import type { LLM } from '../llm/types';
import { findSessionEntry, readSessionIndex, updateSessionEntry } from '../transcript/sessions-index';
import { shouldFlush, type FlushDecision } from './flush-threshold';
import { runFlushTurn, type FlushTurnResult } from './flush-turn';

export interface MaybeFlushOptions {
  llm: LLM;
  settings: CompactionSettings;
  contextWindow: number;
  /** Estimated tokens of the next request (context + system + prompt). */
  projectedTokens: number;
  /** The session's transcript (its size is the byte trigger). */
  transcriptFile: string;
  sessionIndex: { file: string; sessionId: string };
  workspace: string;
  writable: boolean;
  messages: readonly Message[];
  timeZone?: string | undefined;
  baseSystemPrompt?: string | undefined;
  now?: (() => Date) | undefined;
  signal?: AbortSignal | undefined;
}

export type MaybeFlushResult = { ran: false; decision: FlushDecision } | { ran: true; decision: FlushDecision; result: FlushTurnResult };

/** Run the memory flush if it is due; record it in sessions.json when it ran. */
export async function maybeRunMemoryFlush(opts: MaybeFlushOptions): Promise<MaybeFlushResult> {
  const now = opts.now ?? (() => new Date());
  const entry = findSessionEntry(readSessionIndex(opts.sessionIndex.file), opts.sessionIndex.sessionId)?.entry;
  let bytes = 0;
  try {
    bytes = fs.statSync(opts.transcriptFile).size;
  } catch {
    // no transcript yet
  }
  const decision = shouldFlush({
    settings: opts.settings,
    contextWindow: opts.contextWindow,
    projectedTokens: opts.projectedTokens,
    transcriptBytes: bytes,
    entry,
    writable: opts.writable,
  });
  if (!decision.flush) return { ran: false, decision };
  const result = await runFlushTurn({
    llm: opts.llm,
    messages: opts.messages,
    settings: opts.settings.memoryFlush,
    workspace: opts.workspace,
    timeZone: opts.timeZone,
    now: now(),
    clock: now,
    baseSystemPrompt: opts.baseSystemPrompt,
    signal: opts.signal,
  });
  await updateSessionEntry(opts.sessionIndex.file, opts.sessionIndex.sessionId, (e) => ({
    memoryFlushAt: now().getTime(),
    memoryFlushCompactionCount: e.compactionCount ?? 0,
  }));
  return { ran: true, decision, result };
}
