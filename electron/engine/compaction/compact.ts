/**
 * One compaction, start to end (SPEC §4): plan the cut, summarise the old part (model,
 * stages, fallbacks, or the deterministic extract), cap it, write the checkpoint and the
 * `compaction` entry atomically, update sessions.json. Nothing is written until the summary
 * is ready: a failed or cancelled compaction leaves the transcript byte-identical.
 */
import fs from 'node:fs';
import type { CompactionSettings } from '../config/schema';
import type { LLM } from '../llm/types';
import { readTranscript } from '../transcript/read';
import { parsedFingerprint, prefixFingerprint } from '../transcript/prefix';
import { updateSessionEntry } from '../transcript/sessions-index';
import { estimateMessageTokens } from '../transcript/tokens';
import { summaryMessage } from '../transcript/context';
import type { CompactionEntry, Transcript } from '../transcript/types';
import { buildExtract, extractInstructions } from './extract';
import { collectFileOps, formatFileOps } from './file-ops';
import { planCompaction, type CompactionPlan } from './plan';
import { capSummary, SUMMARY_MAX_CHARS } from './prompt';
import { judgeSummary } from './quality';
import { completeIdentifiers, type IdentifierRetention } from './retention';
import { summarizeWithModel, toPieces } from './summarize';
import { writeCompaction } from './write';
import { abortError } from '../util/abort';
import { waitForOpenClawIdle } from '../util/openclaw-lock';

export interface CompactProgress {
  phase: 'plan' | 'summarize' | 'write' | 'done';
  done: number;
  total: number;
  label: string;
}

export interface CompactOptions {
  file: string;
  settings: CompactionSettings;
  contextWindowTokens: number;
  /** The summariser; without one (or when it fails) the deterministic extract is used. */
  llm?: LLM | undefined;
  instructions?: string | undefined;
  all?: boolean | undefined;
  /** What started it, recorded in `details.trigger`. */
  trigger?: 'threshold' | 'preflight' | 'overflow' | 'manual';
  signal?: AbortSignal | undefined;
  onProgress?: ((p: CompactProgress) => void) | undefined;
  now?: (() => Date) | undefined;
  /** Update this sessions.json entry (compactionCount, totalTokens, updatedAt). */
  sessionIndex?: { file: string; sessionId: string } | undefined;
  /** Write a checkpoint copy first (default true). */
  checkpoint?: boolean;
  /**
   * The transcript as already parsed by the caller (the engine's asynchronous load of a big
   * file); used when the file still holds the bytes it was parsed from (givenTranscript),
   * which saves reading and parsing it again on the engine thread.
   */
  transcript?: Transcript | undefined;
  /** How long to wait for OpenClaw's session write lock before failing (default OPENCLAW_WAIT_MS). */
  openclawWaitMs?: number | undefined;
}

export type CompactResult =
  | { compacted: false; reason: string; plan: CompactionPlan }
  | {
      compacted: true;
      entry: CompactionEntry;
      summary: string;
      extract: boolean;
      /** Why the extract was used, when it was. */
      extractReason?: string;
      tokensBefore: number;
      tokensAfter: number;
      checkpoint: string | undefined;
      modelCalls: number;
      plan: CompactionPlan;
      /** Identifiers of the old part the model's summary kept (undefined for an extract). */
      identifierRetention?: IdentifierRetention;
    };

/** The user cancelled: an AbortError (a timeout's reason is not one; it is reported apart). */
const cancelled = (signal: AbortSignal): Error => abortError(signal, 'compaction cancelled');

/**
 * Temperature of the second summary after the judge refused the first. A local model decodes
 * greedily by default (node-llama-cpp: temperature 0), so asking again the same way returned
 * the same text: SmolLM2's looping summary of an 8k session was refused twice, identically,
 * which cost a whole extra generation (~85 s of a 177 s compaction) for nothing.
 */
export const RETRY_TEMPERATURE = 0.7;

/** A model summary that failed the judge twice (quality.ts): go straight to the extract. */
class RejectedSummaryError extends Error {}

/** Summary text for `plan`: the model's (staged as needed) or, failing that, the extract. */
async function summaryFor(plan: CompactionPlan, opts: CompactOptions): Promise<{ text: string; extract: boolean; reason?: string; calls: number; retried?: string }> {
  const messages = plan.toSummarize.map((i) => i.message);
  const instructions = [opts.settings.customInstructions, opts.instructions];
  const extract = (reason: string) => ({
    text: buildExtract({ messages, tokens: plan.summarizedTokens, previousSummary: plan.previous?.summary, reason, instructions }),
    extract: true,
    reason,
    calls: 0,
  });
  if (!opts.llm) return extract('no model configured');
  const userSignal = opts.signal;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error(`timed out after ${opts.settings.timeoutSeconds}s`)), opts.settings.timeoutSeconds * 1000);
  const signal = userSignal ? AbortSignal.any([userSignal, timeout.signal]) : timeout.signal;
  const onProgress = (done: number, total: number, label: string) => opts.onProgress?.({ phase: 'summarize', done, total, label });
  const summarize = (pieces = plan.pieces, temperature?: number) =>
    summarizeWithModel({
      temperature,
      llm: opts.llm as LLM,
      pieces,
      previousSummary: plan.previous?.summary,
      settings: opts.settings,
      prompt: plan.promptOptions,
      budget: plan.budget,
      signal,
      onProgress,
    });
  // A summary that fails the judge is asked for once more, sampled (RETRY_TEMPERATURE), then refused.
  const run = async (pieces = plan.pieces): Promise<{ summary: string; calls: number; retried?: string }> => {
    const r = await summarize(pieces);
    const v = judgeSummary(r.summary);
    if (v.ok) return r;
    const again = await summarize(pieces, RETRY_TEMPERATURE);
    const v2 = judgeSummary(again.summary);
    if (v2.ok) return { summary: again.summary, calls: r.calls + again.calls, retried: v.reason };
    throw new RejectedSummaryError(`the model's summary was rejected twice: ${v2.reason}`);
  };
  const ok = (r: { summary: string; calls: number; retried?: string }) => ({ text: r.summary, extract: false, calls: r.calls, ...(r.retried ? { retried: r.retried } : {}) });
  try {
    try {
      return ok(await run());
    } catch (err) {
      if (userSignal?.aborted) throw cancelled(userSignal);
      if (err instanceof RejectedSummaryError) return extract(err.message);
      if (timeout.signal.aborted) return extract(`the model timed out after ${opts.settings.timeoutSeconds}s`);
      // Fallback 1: leave out single messages larger than half the summariser's window.
      const { pieces, omitted } = toPieces(plan.toSummarize, Math.floor(plan.budget.window / 2));
      if (omitted > 0) {
        try {
          return ok(await run(pieces));
        } catch {
          if (userSignal?.aborted) throw cancelled(userSignal);
        }
      }
      // Fallback 2: the deterministic extract instead of a size-only note.
      return extract(`the model failed: ${(err as Error).message}`);
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `opts.transcript` when the file still holds the bytes it was parsed from — the same size
 * and last 4 KB, or more bytes appended after them (those are kept after the entry, as any
 * line appended during the summary is) — else undefined and the file is read now. The
 * engine parses a big file asynchronously, so another writer had time to rewrite it: a plan
 * from the old bytes must not be written against new ones.
 */
function givenTranscript(opts: CompactOptions): Transcript | undefined {
  const t = opts.transcript;
  if (!t || t.file !== opts.file || fs.statSync(opts.file).size < t.bytes) return undefined;
  return prefixFingerprint(opts.file, t.bytes).tail.equals(parsedFingerprint(t).tail) ? t : undefined;
}

/** Compact the transcript at `opts.file`. */
export async function compact(opts: CompactOptions): Promise<CompactResult> {
  const now = opts.now ?? (() => new Date());
  opts.signal?.throwIfAborted();
  opts.onProgress?.({ phase: 'plan', done: 0, total: 1, label: 'planning' });
  const t: Transcript = givenTranscript(opts) ?? readTranscript(opts.file);
  const expect = prefixFingerprint(opts.file, t.bytes);
  const plan = planCompaction(t, {
    settings: opts.settings,
    contextWindowTokens: opts.contextWindowTokens,
    summarizerWindowTokens: opts.llm?.contextWindow,
    instructions: opts.instructions,
    all: opts.all,
  });
  if (!plan.possible) return { compacted: false, reason: plan.reason, plan };

  const s = await summaryFor(plan, opts);
  if (opts.signal?.aborted) throw cancelled(opts.signal);
  const ops = collectFileOps(
    plan.toSummarize.map((i) => i.message),
    plan.previous?.details,
  );
  const fileOps = formatFileOps(ops);
  const details: CompactionEntry['details'] = { readFiles: ops.readFiles, modifiedFiles: ops.modifiedFiles };
  let body = s.text;
  let retention: IdentifierRetention | undefined;
  if (s.extract) {
    details.extract = true;
    details.extractReason = s.reason;
    const note = extractInstructions([opts.settings.customInstructions, opts.instructions]).note;
    if (note) details.instructionsNote = note;
  } else {
    // Every identifier of the old part survives (SPEC §4 "Beyond"): the model's text is kept
    // and what it dropped is added under ## Exact identifiers.
    const oldPart = [plan.previous?.summary ?? '', ...plan.pieces.map((p) => p.text)].join('\n\n');
    const c = completeIdentifiers(oldPart, s.text, SUMMARY_MAX_CHARS - fileOps.length);
    body = c.text;
    retention = c.retention;
    details.identifiers = { total: c.retention.total, keptByModel: c.retention.kept, added: c.added, notShown: c.notShown };
    if (s.retried) details.summaryRetried = s.retried;
  }
  const summary = capSummary(`${body}${fileOps}`);
  if (opts.trigger) details.trigger = opts.trigger;
  if (opts.instructions) details.instructions = opts.instructions;
  if (opts.all) details.keptNothing = true;
  const entry: CompactionEntry = {
    type: 'compaction',
    id: plan.compactionId,
    parentId: plan.parentId,
    timestamp: now().toISOString(),
    summary,
    firstKeptEntryId: plan.firstKeptEntryId,
    tokensBefore: plan.tokensBefore,
    details,
  };
  // OpenClaw may be mid-turn on this session: wait (bounded) for its write lock to go.
  await waitForOpenClawIdle(opts.file, {
    signal: opts.signal,
    waitMs: opts.openclawWaitMs,
    onWait: (l) => opts.onProgress?.({ phase: 'write', done: 0, total: 1, label: `waiting for OpenClaw to finish writing this session (pid ${l.pid ?? '?'})` }),
  });
  opts.onProgress?.({ phase: 'write', done: 0, total: 1, label: 'writing the compaction entry' });
  opts.signal?.throwIfAborted();
  const written = await writeCompaction(opts.file, entry, expect, { checkpoint: opts.checkpoint !== false, signal: opts.signal });
  const tokensAfter = estimateMessageTokens(summaryMessage(summary)) + plan.keptTokens;
  if (opts.sessionIndex) {
    await updateSessionEntry(opts.sessionIndex.file, opts.sessionIndex.sessionId, (e) => ({
      compactionCount: (e.compactionCount ?? 0) + 1,
      totalTokens: tokensAfter,
      updatedAt: now().getTime(),
    }));
  }
  opts.onProgress?.({ phase: 'done', done: 1, total: 1, label: 'compacted' });
  const result: CompactResult = {
    compacted: true,
    entry: written.entry,
    summary,
    extract: s.extract,
    tokensBefore: plan.tokensBefore,
    tokensAfter,
    checkpoint: written.checkpoint,
    modelCalls: s.calls,
    plan,
  };
  if (s.reason) result.extractReason = s.reason;
  if (retention) result.identifierRetention = retention;
  return result;
}
