/** Channels of sessions, pruning preview and compaction (SPEC §1.1, §3, §4). */
import { z } from 'zod';
import { ch, ev } from './define';
import type {
  CompactPlanResult,
  CompactProgressEvent,
  CompactRunResult,
  EntryTextResult,
  PrunePreviewResult,
  PruneTextResult,
  SessionEntriesResult,
  SessionsListResult,
} from '../types/sessions';

export type * from '../types/sessions';

const AgentId = z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_"').max(100);
/** A session id names a file in the agent's sessions dir: no separators. */
export const SessionIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'letters, digits, ".", ":", "-" and "_"')
  .max(200);

const ratio = z.number().min(0).max(1);
const nonNeg = z.number().int().nonnegative();

/** Pruning settings to try in the preview (any subset of agents.defaults.contextPruning). */
export const PruningOverridesSchema = z
  .object({
    mode: z.enum(['cache-ttl', 'off']),
    ttl: z.string().max(20),
    keepLastAssistants: nonNeg,
    softTrimRatio: ratio,
    hardClearRatio: ratio,
    minPrunableToolChars: nonNeg,
    softTrim: z.object({ maxChars: z.number().int().positive(), headChars: nonNeg, tailChars: nonNeg }).partial(),
    hardClear: z.object({ enabled: z.boolean(), placeholder: z.string().max(1000) }).partial(),
    tools: z.object({ allow: z.array(z.string().max(200)).max(100), deny: z.array(z.string().max(200)).max(100) }).partial(),
  })
  .partial()
  .strict();

const PrunePreviewRequest = z.object({
  agentId: AgentId.optional(),
  sessionId: SessionIdSchema,
  overrides: PruningOverridesSchema.optional(),
  contextWindowTokens: z.number().int().positive().optional(),
  /** ISO time to evaluate the TTL at (default: now). */
  now: z.iso.datetime({ offset: true }).optional(),
  /** Prune as if the cache TTL had expired. */
  ignoreTtl: z.boolean().optional(),
});

const Compact = z.object({
  agentId: AgentId.optional(),
  sessionId: SessionIdSchema,
  instructions: z.string().max(4000).optional(),
  all: z.boolean().optional(),
});

export const sessionsChannels = {
  /** Every session of an agent: id, key, file, messages, estimated tokens, compactions, last activity. */
  'sessions.list': ch(z.object({ agentId: AgentId.optional() })).returns<SessionsListResult>(),
  /** A page of a session's entries (file order) for the virtualised timeline. */
  'sessions.entries': ch(
    z.object({
      agentId: AgentId.optional(),
      sessionId: SessionIdSchema,
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(2000).default(200),
    }),
  ).returns<SessionEntriesResult>(),
  /** A page of one text block of an entry, whose `sessions.entries` view was cut (`clipped`). */
  'sessions.entryText': ch(
    z.object({
      agentId: AgentId.optional(),
      sessionId: SessionIdSchema,
      entryId: z.string().min(1).max(200),
      block: z.number().int().nonnegative(),
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(200_000).default(100_000),
    }),
  ).returns<EntryTextResult>(),
  /**
   * What pruning would send the model now: the diff (exact, over the full texts) and each
   * tool result on disk vs pruned, as excerpts with their full lengths. Never writes.
   */
  'prune.preview': ch(PrunePreviewRequest).returns<PrunePreviewResult>(),
  /**
   * A page of one tool result's whole text, on disk or as pruned with the same settings as
   * the preview (the view's "show all"). Never writes.
   */
  'prune.text': ch(
    PrunePreviewRequest.extend({
      entryId: z.string().min(1).max(200),
      side: z.enum(['before', 'after']),
      offset: z.number().int().nonnegative().default(0),
      limit: z.number().int().positive().max(200_000).default(100_000),
    }),
  ).returns<PruneTextResult>(),
  /** The dry run: where the cut falls, tokens before/after and the exact prompt. No model, no write. */
  'compact.plan': ch(Compact).returns<CompactPlanResult>(),
  /** Compact now (the model if one is configured, else the deterministic extract). Progress as `compact.progress`. */
  'compact.run': ch(Compact).returns<CompactRunResult>(),
};

export const sessionsEvents = {
  'compact.progress': ev<CompactProgressEvent>(),
};
