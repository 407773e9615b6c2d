/**
 * Exact token counts (SPEC §2: where a local model's tokenizer is loaded, show the exact
 * count beside the estimate): the session's context and the compaction plan's parts,
 * counted with the configured local model's own tokenizer.
 */
import { z } from 'zod';
import { ch } from './define';
import { SessionIdSchema } from './sessions';

/** One count: the chars/4 estimate and, when a tokenizer is loaded, the exact number. */
export interface TokenCount {
  estimate: number;
  /** Tokens by the model's tokenizer; null without one. */
  exact: number | null;
}

export interface ExactTokensResult {
  sessionId: string;
  /** The tokenizer used (the local chat model); null when none: see `reason`. */
  tokenizer: { provider: string; model: string } | null;
  /** Why there is no exact count (no local model configured, it failed to load…). */
  reason: string | undefined;
  /** The messages of the current context (summary included; system prompt and chat template not). */
  context: TokenCount;
  /** The compaction plan's parts, as `compact.plan` cuts them. */
  summarized: TokenCount;
  kept: TokenCount;
}

const ExactTokens = z.object({
  agentId: z.string().regex(/^[A-Za-z0-9_-]+$/).max(100).optional(),
  sessionId: SessionIdSchema,
  all: z.boolean().optional(),
});

export const tokensChannels = {
  /** Exact counts beside the estimates, with the local chat model's tokenizer (loads it). */
  'tokens.exact': ch(ExactTokens).returns<ExactTokensResult>(),
};
