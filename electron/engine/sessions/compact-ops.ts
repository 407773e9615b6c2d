/**
 * `compact.plan` (the dry run) and `compact.run` for a session: the model comes from the
 * engine's LLM (deps.createLlm or `cairn.llm`); without one the deterministic extract is
 * written. Progress goes out as `compact.progress` events with the caller's opId.
 */
import path from 'node:path';
import type { CompactPlanResult, CompactRunResult } from '../../../shared/types/sessions';
import { compact } from '../compaction/compact';
import { planCompaction } from '../compaction/plan';
import { windowThresholds } from '../compaction/thresholds';
import type { EngineContext } from '../core/context';
import type { LLM } from '../llm/types';
import { engineLlm } from '../llm/service';
import { loadSoftly } from './load-soft';
import { assertSessionWritable, type ResolvedSession } from './resolve';

/** The engine's model, or undefined (with the reason) when none can be used. */
function summarizer(ctx: EngineContext): { llm: LLM | undefined; problem?: string } {
  try {
    return { llm: engineLlm(ctx) };
  } catch (err) {
    return { llm: undefined, problem: (err as Error).message };
  }
}

/** The dry run; a big transcript is read and parsed without holding the engine thread (load-soft.ts). */
export async function compactPlan(ctx: EngineContext, s: ResolvedSession, req: { instructions?: string | undefined; all?: boolean | undefined }, signal?: AbortSignal): Promise<CompactPlanResult> {
  const t = await loadSoftly(ctx, s, signal);
  const { llm } = summarizer(ctx);
  const plan = planCompaction(t, {
    settings: ctx.config().config.agents.defaults.compaction,
    contextWindowTokens: s.contextWindow,
    summarizerWindowTokens: llm?.contextWindow,
    instructions: req.instructions,
    all: req.all,
  });
  return {
    sessionId: s.sessionId,
    possible: plan.possible,
    reason: plan.reason,
    cutEntryId: plan.cutEntryId,
    firstKeptEntryId: plan.firstKeptEntryId,
    previousCompactionId: plan.previous?.id,
    tokensBefore: plan.tokensBefore,
    keptTokens: plan.keptTokens,
    summarizedTokens: plan.summarizedTokens,
    tokensAfterMax: plan.tokensAfterMax,
    keepBudget: plan.keepBudget,
    messagesToSummarize: plan.toSummarize.length,
    summarizeEntryIds: plan.toSummarize.map((i) => i.entry.id),
    keptEntryIds: plan.kept.map((i) => i.entry.id),
    mode: plan.mode,
    stages: plan.stages,
    prompt: plan.prompt,
    contextWindow: s.contextWindow,
    thresholds: (({ reserve, reserveCapped, compactAt, flushAt }) => ({ reserve, reserveCapped, compactAt, flushAt }))(
      windowThresholds(s.contextWindow, ctx.config().config.agents.defaults.compaction),
    ),
    summarizer: llm ? { provider: llm.provider, model: llm.model } : null,
    extractNote: plan.extractNote,
  };
}

export async function compactRun(
  ctx: EngineContext,
  s: ResolvedSession,
  req: { instructions?: string | undefined; all?: boolean | undefined },
  call: { signal: AbortSignal; opId: string | undefined },
): Promise<CompactRunResult> {
  assertSessionWritable(s, `compacting session ${s.sessionId}`);
  ctx.assertWritable(`compacting session ${s.sessionId}`);
  const { llm, problem } = summarizer(ctx);
  if (problem) ctx.warn(`compaction uses the deterministic extract: ${problem}`);
  // Parsed like the pages parse it; compact() checks the file still holds these bytes
  // (else reads it again) and the write re-checks under the lock, as before. A transcript
  // changed meanwhile or locked by OpenClaw throws an error that crosses as `conflict`.
  const transcript = await loadSoftly(ctx, s, call.signal);
  const r = await compact({
    transcript,
    file: s.file,
    settings: ctx.config().config.agents.defaults.compaction,
    contextWindowTokens: s.contextWindow,
    llm,
    instructions: req.instructions,
    all: req.all,
    trigger: 'manual',
    signal: call.signal,
    now: () => ctx.now(),
    sessionIndex: { file: s.indexFile, sessionId: s.sessionId },
    onProgress: (p) => ctx.events.emit('compact.progress', { opId: call.opId, sessionId: s.sessionId, ...p }),
  });
  if (!r.compacted) {
    return {
      sessionId: s.sessionId, compacted: false, reason: r.reason, entryId: undefined, firstKeptEntryId: undefined, summary: undefined,
      extract: false, extractReason: undefined, tokensBefore: r.plan.tokensBefore, tokensAfter: undefined, checkpoint: undefined, modelCalls: 0,
    };
  }
  return {
    sessionId: s.sessionId,
    compacted: true,
    reason: r.plan.reason,
    entryId: r.entry.id,
    firstKeptEntryId: r.entry.firstKeptEntryId,
    summary: r.summary,
    extract: r.extract,
    extractReason: r.extractReason ?? (r.extract && problem ? problem : undefined),
    tokensBefore: r.tokensBefore,
    tokensAfter: r.tokensAfter,
    checkpoint: r.checkpoint ? path.basename(r.checkpoint) : undefined,
    modelCalls: r.modelCalls,
  };
}
