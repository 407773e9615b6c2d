/**
 * The compaction plan: where the cut falls, what is summarised and kept, token counts, and
 * the exact prompt(s) the summariser would get. `compact.plan` (the dry run) returns it
 * without calling a model; `compact()` carries it out.
 */
import type { CompactionSettings } from '../config/schema';
import { newEntryId } from '../transcript/ids';
import { summaryMessage } from '../transcript/context';
import { estimateMessageTokens, estimateTextTokens } from '../transcript/tokens';
import type { CompactionEntry, Transcript } from '../transcript/types';
import { findCutPoint } from './cut-point';
import { extractInstructions } from './extract';
import { capSummary, stageUserPrompt, summarySystemPrompt, summaryUserPrompt, SUMMARY_MAX_CHARS, type PromptOptions } from './prompt';
import { compactionRegion, type RegionItem } from './region';
import { chunkPieces, summaryBudget, toPieces, type Piece, type SummaryBudget } from './summarize';
import { keepBudget } from './thresholds';

export interface PlanOptions {
  settings: CompactionSettings;
  /** The session's context window (tokens). */
  contextWindowTokens: number;
  /** The summariser's own window, when it differs (its LLM's contextWindow). */
  summarizerWindowTokens?: number | undefined;
  /** Instructions of a manual `/compact`. */
  instructions?: string | undefined;
  /** Keep nothing verbatim (`/compact --all`). */
  all?: boolean | undefined;
}

export interface CompactionPlan {
  /** False when there is nothing to summarise; `reason` says why. */
  possible: boolean;
  reason: string;
  /** The id the new compaction entry will get. */
  compactionId: string;
  /** The entry the new compaction hangs under. */
  parentId: string | null;
  /** First entry kept verbatim; the new compaction's own id when nothing is kept. */
  firstKeptEntryId: string;
  /** The entry the cut falls before (undefined when nothing is kept). */
  cutEntryId: string | undefined;
  previous: CompactionEntry | undefined;
  tokensBefore: number;
  keptTokens: number;
  summarizedTokens: number;
  /** tokensAfter when the summary is as long as it may be (16,000 chars). */
  tokensAfterMax: number;
  keepBudget: number;
  toSummarize: RegionItem[];
  kept: RegionItem[];
  budget: SummaryBudget;
  /** One request, or stages then a merge. */
  mode: 'single' | 'staged';
  stages: number;
  pieces: Piece[];
  /** The exact prompt of the single request, or of stage 1 when staged. */
  prompt: { system: string; user: string };
  promptOptions: PromptOptions;
  /** What the deterministic extract would do here: carry the previous summary, follow or refuse instructions. */
  extractNote: string;
}


/** Plan a compaction of the transcript's current branch. */
export function planCompaction(t: Transcript, opts: PlanOptions): CompactionPlan {
  const region = compactionRegion(t);
  const compactionId = newEntryId(t.byId);
  const keep = opts.all ? 0 : keepBudget(opts.settings, opts.contextWindowTokens);
  const cut = findCutPoint(region.items, keep);
  const toSummarize = region.items.slice(0, cut.index);
  const kept = region.items.slice(cut.index);
  const cutEntry = kept[0]?.entry;
  const previousSummary = region.previous?.summary;
  const promptOptions: PromptOptions = { customInstructions: opts.settings.customInstructions, instructions: opts.instructions };
  const system = summarySystemPrompt(opts.settings);
  const window = opts.summarizerWindowTokens ?? opts.contextWindowTokens;
  const overhead = estimateTextTokens(system) + estimateTextTokens(summaryUserPrompt('', previousSummary, promptOptions));
  const budget = summaryBudget(window, overhead);
  const { pieces } = toPieces(toSummarize);
  const total = pieces.reduce((n, p) => n + p.tokens, 0);
  const staged = total > budget.single;
  const chunks = staged ? chunkPieces(pieces, budget.stage) : [pieces];
  const first = chunks[0] ?? [];
  const conversation = first.map((p) => p.text).join('\n\n');
  const user = staged ? stageUserPrompt(conversation, 1, chunks.length, promptOptions) : summaryUserPrompt(conversation, previousSummary, promptOptions);
  const maxSummaryTokens = estimateMessageTokens(summaryMessage(capSummary('x'.repeat(SUMMARY_MAX_CHARS))));
  const possible = toSummarize.length > 0;
  let reason = possible ? `summarise ${toSummarize.length} messages, keep ${kept.length}` : '';
  if (!possible) {
    reason = region.items.length === 0
      ? 'nothing to compact: the context has no messages after the last summary'
      : `nothing to compact: the ${cut.keptTokens} tokens since the last summary fit in the ${keep}-token keep budget, or no user/assistant message to cut at (compact everything instead to summarise it all)`;
  }
  return {
    possible,
    reason,
    compactionId,
    parentId: region.leafId,
    firstKeptEntryId: cutEntry?.id ?? compactionId,
    cutEntryId: cutEntry?.id,
    previous: region.previous,
    tokensBefore: region.contextTokens,
    keptTokens: cut.keptTokens,
    summarizedTokens: cut.summarizedTokens,
    tokensAfterMax: cut.keptTokens + maxSummaryTokens,
    keepBudget: keep,
    toSummarize,
    kept,
    budget,
    mode: staged ? 'staged' : 'single',
    stages: chunks.length,
    pieces,
    prompt: { system, user },
    promptOptions,
    extractNote: [
      previousSummary ? 'the extract carries the previous summary forward (its sections merged with the new part\'s)' : 'no previous summary to carry forward',
      extractInstructions([opts.settings.customInstructions, opts.instructions]).note,
    ].filter(Boolean).join('. '),
  };
}
