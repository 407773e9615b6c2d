/**
 * Summarising the old part with a model (SPEC §4): one request when it fits, else stages of
 * about 40% of the summariser's window merged at the end. A ContextOverflowError never
 * leaves compaction stuck: the input shrinks (more stages, then halving a message) until it
 * fits or there is nothing left to shrink. Every call honours the AbortSignal.
 */
import type { Message } from '../../../shared/types/messages';
import type { CompactionSettings } from '../config/schema';
import { ContextOverflowError, type ChatRequest, type LLM } from '../llm/types';
import { loops } from './quality';
import { estimateTextTokens } from '../transcript/tokens';
import { mergeUserPrompt, stageUserPrompt, summarySystemPrompt, summaryUserPrompt, type PromptOptions } from './prompt';
import { omittedNote, serializeMessage, truncateNoted } from './serialize';
import { contentText } from '../../../shared/text/content';

/** Share of the summariser's window one stage may fill. */
export const STAGE_SHARE = 0.4;
/** Hard bound on model calls for one compaction: shrinking always ends. */
export const MAX_CALLS = 64;
const MIN_PIECE_CHARS = 1000;

export interface Piece {
  text: string;
  tokens: number;
}

export interface SummaryBudget {
  window: number;
  /** Max tokens the summariser may write. */
  maxTokens: number;
  /** Conversation tokens one single request may carry. */
  single: number;
  /** Conversation tokens one stage may carry. */
  stage: number;
}

/** Budgets for a summariser with `window` tokens, given the fixed prompt overhead. */
export function summaryBudget(window: number, overheadTokens: number): SummaryBudget {
  const maxTokens = Math.min(8192, Math.max(256, Math.floor(window * 0.2)));
  const single = Math.max(1, Math.floor(window * 0.9) - maxTokens - overheadTokens);
  const stage = Math.max(1, Math.min(single, Math.floor(window * STAGE_SHARE)));
  return { window, maxTokens, single, stage };
}

/** Serialise messages into pieces; messages over `omitAboveTokens` become a one-line note. */
export function toPieces(items: readonly { message: Message; tokens: number }[], omitAboveTokens = Infinity): { pieces: Piece[]; omitted: number } {
  const pieces: Piece[] = [];
  let omitted = 0;
  for (const it of items) {
    let text: string;
    if (it.tokens > omitAboveTokens) {
      text = omittedNote(it.message, it.tokens);
      omitted++;
    } else text = serializeMessage(it.message);
    if (text) pieces.push({ text, tokens: estimateTextTokens(text) + 1 });
  }
  return { pieces, omitted };
}

/** Greedy chunks of at most `budget` tokens; a piece larger than the budget is cut to fit. */
export function chunkPieces(pieces: readonly Piece[], budget: number): Piece[][] {
  const chunks: Piece[][] = [];
  let cur: Piece[] = [];
  let curTokens = 0;
  for (let p of pieces) {
    if (p.tokens > budget) {
      const text = truncateNoted(p.text, Math.max(MIN_PIECE_CHARS, budget * 4 - 100));
      p = { text, tokens: estimateTextTokens(text) };
    }
    if (cur.length && curTokens + p.tokens > budget) {
      chunks.push(cur);
      cur = [];
      curTokens = 0;
    }
    cur.push(p);
    curTokens += p.tokens;
  }
  if (cur.length) chunks.push(cur);
  return chunks;
}

const join = (ps: readonly Piece[]) => ps.map((p) => p.text).join('\n\n');
const sum = (ps: readonly Piece[]) => ps.reduce((n, p) => n + p.tokens, 0);

export interface ModelSummaryInput {
  llm: LLM;
  pieces: Piece[];
  previousSummary: string | undefined;
  settings: CompactionSettings;
  prompt: PromptOptions;
  budget: SummaryBudget;
  signal?: AbortSignal | undefined;
  onProgress?: ((done: number, total: number, label: string) => void) | undefined;
  /** Sampling temperature of every call; the provider's default when absent. */
  temperature?: number | undefined;
}

/** Streamed text is checked for a loop every this many characters, over its last LOOP_TAIL. */
const LOOP_CHECK_EVERY = 64;
const LOOP_TAIL = 2400;

/**
 * One summariser call whose text is watched as it streams in: a weak local model that falls
 * into a loop ("- Keep going. - Keep going. …") is stopped as soon as the loop shows
 * (quality.ts `loops`) instead of writing up to `maxTokens` (20% of its window — a minute or
 * more on a CPU) of text the judge will refuse anyway. The text so far is returned; the
 * judge then refuses it as repeating, exactly as it would the whole.
 */
async function streamStoppingLoops(llm: LLM, req: Omit<ChatRequest, 'signal' | 'onEvent'>, signal: AbortSignal | undefined): Promise<string> {
  const ac = new AbortController();
  const forward = () => ac.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener('abort', forward, { once: true });
  let streamed = '';
  let checked = 0;
  let looped = false;
  try {
    const res = await llm.chat({
      ...req,
      signal: ac.signal,
      onEvent: (e) => {
        if (e.type !== 'text' || looped) return;
        streamed += e.delta;
        if (streamed.length - checked < LOOP_CHECK_EVERY) return;
        checked = streamed.length;
        if (loops(streamed.slice(-LOOP_TAIL))) {
          looped = true;
          ac.abort(new Error('the summary loops'));
        }
      },
    });
    if (looped) return streamed;
    return contentText(res.message.content, { sep: '' });
  } catch (err) {
    if (looped && !signal?.aborted) return streamed;
    throw err;
  } finally {
    signal?.removeEventListener('abort', forward);
  }
}

export interface ModelSummary {
  summary: string;
  calls: number;
  stages: number;
}

/** Summarise `pieces` with the model; throws when the model fails (the caller falls back). */
export async function summarizeWithModel(input: ModelSummaryInput): Promise<ModelSummary> {
  const { llm, budget, signal } = input;
  const system = summarySystemPrompt(input.settings);
  let calls = 0;
  let planned = 1;
  const progress = (label: string) => input.onProgress?.(calls, Math.max(planned, calls), label);

  const call = async (user: string, label: string): Promise<string> => {
    signal?.throwIfAborted();
    if (++calls > MAX_CALLS) throw new Error(`summarisation needed more than ${MAX_CALLS} model calls`);
    progress(label);
    const text = (await streamStoppingLoops(llm, { system, messages: [{ role: 'user', content: user }], maxTokens: budget.maxTokens, ...(input.temperature !== undefined ? { temperature: input.temperature } : {}) }, signal)).trim();
    signal?.throwIfAborted();
    if (!text) throw new Error('the model returned an empty summary');
    return text;
  };

  const isOverflow = (err: unknown) => err instanceof ContextOverflowError;

  // One part of the history; on overflow split it, and a single piece is halved.
  const summarizePart = async (ps: Piece[], part: number, parts: number): Promise<string> => {
    try {
      return await call(stageUserPrompt(join(ps), part, parts, input.prompt), `summarising part ${part} of ${parts}`);
    } catch (err) {
      if (!isOverflow(err)) throw err;
      if (ps.length > 1) {
        const mid = Math.ceil(ps.length / 2);
        planned += 2;
        const a = await summarizePart(ps.slice(0, mid), 1, 2);
        const b = await summarizePart(ps.slice(mid), 2, 2);
        return merge([a, b], undefined);
      }
      const only = ps[0] as Piece;
      if (only.text.length <= MIN_PIECE_CHARS) throw err;
      const text = truncateNoted(only.text, Math.floor(only.text.length / 2));
      return summarizePart([{ text, tokens: estimateTextTokens(text) }], part, parts);
    }
  };

  const merge = async (partials: string[], previous: string | undefined): Promise<string> => {
    try {
      return await call(mergeUserPrompt(partials, previous, input.prompt), `merging ${partials.length} partial summaries`);
    } catch (err) {
      if (!isOverflow(err)) throw err;
      if (partials.length > 2) {
        const mid = Math.ceil(partials.length / 2);
        planned += 2;
        const a = await merge(partials.slice(0, mid), undefined);
        const b = await merge(partials.slice(mid), undefined);
        return merge([a, b], previous);
      }
      const longest = Math.max(...partials.map((p) => p.length), previous?.length ?? 0);
      if (longest <= MIN_PIECE_CHARS) throw err;
      const half = (s: string) => truncateNoted(s, Math.floor(s.length / 2));
      return merge(partials.map(half), previous && half(previous));
    }
  };

  const staged = async (ps: Piece[]): Promise<string> => {
    const chunks = chunkPieces(ps, budget.stage);
    planned = calls + chunks.length + 1;
    const partials: string[] = [];
    for (let i = 0; i < chunks.length; i++) partials.push(await summarizePart(chunks[i] as Piece[], i + 1, chunks.length));
    if (partials.length === 1 && !input.previousSummary) return partials[0] as string;
    return merge(partials, input.previousSummary);
  };

  let summary: string;
  let stages = 1;
  if (sum(input.pieces) <= budget.single) {
    try {
      summary = await call(summaryUserPrompt(join(input.pieces), input.previousSummary, input.prompt), 'summarising');
    } catch (err) {
      if (!isOverflow(err)) throw err;
      stages = chunkPieces(input.pieces, budget.stage).length;
      summary = await staged(input.pieces);
    }
  } else {
    stages = chunkPieces(input.pieces, budget.stage).length;
    summary = await staged(input.pieces);
  }
  input.onProgress?.(calls, calls, 'summary ready');
  return { summary, calls, stages };
}
