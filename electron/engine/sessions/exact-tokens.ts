/**
 * `tokens.exact`: the session's context and the compaction plan's parts counted with the
 * local chat model's tokenizer, beside the chars/4 estimates (SPEC §2). Only a local model
 * has a tokenizer here (`LLM.countTokens`); remote providers get `exact: null` and a reason.
 * Each message is counted as the text the estimate counts (text, thinking, tool name +
 * JSON arguments), so the two numbers compare like with like; the chat template's few
 * tokens per message are not included.
 */
import type { ExactTokensResult, TokenCount } from '../../../shared/contract/tokens';
import type { Message } from '../../../shared/types/messages';
import type { EngineContext } from '../core/context';
import { planCompaction } from '../compaction/plan';
import { compactionRegion } from '../compaction/region';
import { engineLlm } from '../llm/service';
import type { LLM } from '../llm/types';
import { estimateMessageTokens } from '../transcript/tokens';
import { loadSoftly } from './load-soft';
import { resolveSession } from './resolve';
import { contentText } from '../../../shared/text/content';

/** The text of a message as the estimate counts it. */
export function countedText(m: Message): string {
  return contentText(m.content, { thinking: true, toolCall: (name, args) => `${name}${JSON.stringify(args)}` });
}

/** Estimate and exact count of `messages` (exact null without `count`). */
export async function countMessages(messages: readonly Message[], count: ((text: string) => Promise<number>) | undefined): Promise<TokenCount> {
  let estimate = 0;
  let exact = 0;
  for (const m of messages) {
    estimate += estimateMessageTokens(m);
    if (count) exact += await count(countedText(m));
  }
  return { estimate, exact: count ? exact : null };
}

/** The counts for one session; a big transcript is read without holding the engine thread (load-soft.ts). */
export async function exactTokens(ctx: EngineContext, req: { agentId?: string | undefined; sessionId: string; all?: boolean | undefined }, signal?: AbortSignal): Promise<ExactTokensResult> {
  const s = resolveSession(ctx, req.sessionId, req.agentId);
  const t = await loadSoftly(ctx, s, signal);
  let llm: LLM | undefined;
  let reason: string | undefined;
  try {
    llm = engineLlm(ctx);
  } catch (err) {
    reason = (err as Error).message;
  }
  if (!llm) reason ??= 'no chat model configured; a local model (cairn.llm.provider "llama") gives exact counts';
  else if (!llm.countTokens) {
    reason = `${llm.provider} does not expose its tokenizer here: only a local model (cairn.llm.provider "llama") gives exact counts`;
  }
  const count = llm?.countTokens ? llm.countTokens.bind(llm) : undefined;
  const plan = planCompaction(t, { settings: ctx.config().config.agents.defaults.compaction, contextWindowTokens: s.contextWindow, summarizerWindowTokens: llm?.contextWindow, all: req.all });
  const region = compactionRegion(t);
  try {
    return {
      sessionId: s.sessionId,
      tokenizer: count && llm ? { provider: llm.provider, model: llm.model } : null,
      reason,
      context: await countMessages(region.context.messages, count),
      summarized: await countMessages(plan.toSummarize.map((i) => i.message), count),
      kept: await countMessages(plan.kept.map((i) => i.message), count),
    };
  } catch (err) {
    // The model did not load (missing file, not a GGUF…): the estimates still stand.
    if (!count) throw err;
    const none = async (messages: readonly Message[]) => countMessages(messages, undefined);
    return {
      sessionId: s.sessionId,
      tokenizer: null,
      reason: `the local model's tokenizer could not be loaded: ${(err as Error).message}`,
      context: await none(region.context.messages),
      summarized: await none(plan.toSummarize.map((i) => i.message)),
      kept: await none(plan.kept.map((i) => i.message)),
    };
  }
}

/** Handlers of shared/contract/tokens.ts. */
export function tokensHandlers(ctx: EngineContext) {
  return { 'tokens.exact': (req: { agentId?: string | undefined; sessionId: string; all?: boolean | undefined }, call: { signal: AbortSignal }) => exactTokens(ctx, req, call.signal) };
}
