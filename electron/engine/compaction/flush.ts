/**
 * The memory flush as the turn loop calls it: decide (threshold, once per cycle, read-only),
 * run the silent turn, and record `memoryFlushAt` / `memoryFlushCompactionCount` in
 * sessions.json so the next turn of the same cycle skips it.
 *
 * Only a flush that did its job is recorded. One that threw (the model failed, the daily
 * note could not be read or written) records nothing, and neither does one whose write to
 * today's note came back as an error (`noteFailed`): the next check of the same cycle runs it
 * again (the turn loop's next turn; SPEC §5's once-per-cycle counts flushes that happened).
 */
import fs from 'node:fs';
import path from 'node:path';
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
  /** The context the flush turn continues (pruned, as every call is sent); a function is called only when the flush runs. */
  messages: readonly Message[] | (() => readonly Message[]);
  timeZone?: string | undefined;
  baseSystemPrompt?: string | undefined;
  now?: (() => Date) | undefined;
  signal?: AbortSignal | undefined;
}

export type MaybeFlushResult =
  | { ran: false; decision: FlushDecision }
  | {
      ran: true;
      decision: FlushDecision;
      result: FlushTurnResult;
      /** Why today's note could not be written (its path and the tool's error); the flush was then not recorded. */
      noteFailed?: string | undefined;
    };

/** The failed writes to today's note (`memory/<date>.md`), as "<path>: <error>"; undefined when none failed. */
export function failedNoteWrites(result: FlushTurnResult): string | undefined {
  const note = `memory/${result.date}.md`;
  const failed = result.toolCalls.filter((t) => t.name === 'write' && t.isError && path.posix.normalize(t.path.trim().replaceAll('\\', '/')) === note);
  return failed.length ? `${note}: ${failed[failed.length - 1]!.result}` : undefined;
}

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
    messages: typeof opts.messages === 'function' ? opts.messages() : opts.messages,
    settings: opts.settings.memoryFlush,
    workspace: opts.workspace,
    timeZone: opts.timeZone,
    now: now(),
    clock: now,
    baseSystemPrompt: opts.baseSystemPrompt,
    signal: opts.signal,
  });
  const noteFailed = failedNoteWrites(result);
  if (noteFailed) return { ran: true, decision, result, noteFailed };
  await updateSessionEntry(opts.sessionIndex.file, opts.sessionIndex.sessionId, (e) => ({
    memoryFlushAt: now().getTime(),
    memoryFlushCompactionCount: e.compactionCount ?? 0,
  }));
  return { ran: true, decision, result };
}
