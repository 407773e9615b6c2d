/**
 * The one configuration schema of Cairn: every key, its default and its allowed range.
 *
 * Key names follow OpenClaw's `openclaw.json` as OpenClaw 2026.9 accepts it
 * (`agents.defaults.compaction.*`, `agents.defaults.contextPruning.*`, `memory.search.*`, per
 * agent `agents.entries.<id>`) so that an OpenClaw state directory opens without conversion;
 * the retired paths (`agents.defaults.memorySearch`, top-level `memorySearch`, `agents.list`)
 * are moved to today's before validation (legacy-keys.ts). Objects are "loose": keys Cairn does
 * not know (OpenClaw has many: channels, gateway, …) are kept, never rejected.
 *
 * Defaults live here and only here (SPEC §3–§7). Nested objects use `.prefault({})` so that
 * an absent object is parsed through its own schema and gets every inner default.
 */
import { z } from 'zod';

const MiB = 1024 * 1024;

/** A duration such as "5m", "90s", "1h", "250ms" (OpenClaw's format). */
export const DurationString = z
  .string()
  .regex(/^\d+(\.\d+)?\s*(ms|s|m|h|d)$/, 'a duration such as "5m", "30s", "1h" or "250ms"');

/** Parse a duration string (see {@link DurationString}) into milliseconds. */
export function durationMs(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/.exec(value.trim());
  if (!m) throw new Error(`not a duration: ${JSON.stringify(value)}`);
  const n = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 'ms' | 's' | 'm' | 'h' | 'd'];
  return n * unit;
}

const ratio = z.number().min(0).max(1);
const posInt = z.number().int().positive();
const nonNegInt = z.number().int().nonnegative();

export const MemoryFlushSchema = z.looseObject({
  enabled: z.boolean().default(true),
  softThresholdTokens: nonNegInt.default(4000),
  forceFlushTranscriptBytes: posInt.default(2 * MiB),
  systemPrompt: z.string().default('Session nearing compaction. Store durable memories now.'),
  prompt: z
    .string()
    .default('Write any lasting notes to memory/YYYY-MM-DD.md; reply with NO_REPLY.'),
});

export const CompactionSchema = z.looseObject({
  reserveTokens: nonNegInt.default(16384),
  reserveTokensFloor: nonNegInt.default(20000),
  keepRecentTokens: nonNegInt.default(20000),
  maxHistoryShare: z.number().gt(0).max(1).default(0.5),
  customInstructions: z.string().optional(),
  identifierPolicy: z.enum(['strict', 'off', 'custom']).default('strict'),
  identifierInstructions: z.string().optional(),
  timeoutSeconds: posInt.default(900),
  memoryFlush: MemoryFlushSchema.prefault({}),
});

export const ContextPruningSchema = z.looseObject({
  mode: z.enum(['cache-ttl', 'off']).default('cache-ttl'),
  ttl: DurationString.default('5m'),
  keepLastAssistants: nonNegInt.default(3),
  softTrimRatio: ratio.default(0.3),
  hardClearRatio: ratio.default(0.5),
  minPrunableToolChars: nonNegInt.default(50000),
  softTrim: z
    .looseObject({
      maxChars: posInt.default(4000),
      headChars: nonNegInt.default(1500),
      tailChars: nonNegInt.default(1500),
    })
    .prefault({}),
  hardClear: z
    .looseObject({
      enabled: z.boolean().default(true),
      placeholder: z.string().default('[Old tool result content cleared]'),
    })
    .prefault({}),
  tools: z
    .looseObject({
      allow: z.array(z.string()).default([]),
      deny: z.array(z.string()).default([]),
    })
    .prefault({}),
});

export const EmbeddingProvider = z.enum(['auto', 'local', 'openai', 'gemini', 'voyage', 'static', 'none']);

export const DEFAULT_LOCAL_EMBEDDING_MODEL =
  'hf:ggml-org/embeddinggemma-300m-qat-q8_0-GGUF/embeddinggemma-300m-qat-Q8_0.gguf';

export const MemorySearchSchema = z.looseObject({
  enabled: z.boolean().default(true),
  provider: EmbeddingProvider.default('auto'),
  /** Provider's model name (remote providers); the provider's default when absent. */
  model: z.string().optional(),
  fallback: z.string().default('none'),
  local: z
    .looseObject({
      /** A GGUF file on disk; when absent, the default model in `cairn/models/` if downloaded. */
      modelPath: z.string().optional(),
      /** What "download recommended model" fetches (only when the user asks). */
      modelUri: z.string().default(DEFAULT_LOCAL_EMBEDDING_MODEL),
    })
    .prefault({}),
  remote: z
    .looseObject({
      baseUrl: z.string().optional(),
      apiKey: z.string().optional(),
      headers: z.record(z.string(), z.string()).optional(),
    })
    .prefault({}),
  sources: z.array(z.enum(['memory', 'sessions'])).min(1).default(['memory']),
  extraPaths: z.array(z.string()).default([]),
  chunking: z
    .looseObject({
      tokens: posInt.default(400),
      overlap: nonNegInt.default(80),
    })
    .prefault({}),
  sync: z
    .looseObject({
      watch: z.boolean().default(true),
      watchDebounceMs: nonNegInt.default(1500),
      onSessionStart: z.boolean().default(true),
      onSearch: z.boolean().default(true),
    })
    .prefault({}),
  query: z
    .looseObject({
      maxResults: posInt.max(100).default(6),
      // 0.1, not OpenClaw's 0.35: keyword scores are relative to the best hit here, so 0.35
      // cut 44% of LoCoMo questions below 6 results (2.6% at 0.1, turn recall 0.815 → 0.834;
      // docs/benchmarks.md). An explicit minScore in the config always wins.
      minScore: ratio.default(0.1),
      hybrid: z
        .looseObject({
          enabled: z.boolean().default(true),
          /** Absent = the per-embedder default recorded in docs/benchmarks.md. */
          vectorWeight: ratio.optional(),
          textWeight: ratio.optional(),
          candidateMultiplier: posInt.max(50).default(4),
          /**
           * Cairn: how each side's raw scores become 0..1 before the merge (search/score.ts):
           * `relative` = BM25 as a share of the best keyword hit (a tiny memory's exact match
           * scores 1, not BM25's collapsed ~0), `absolute` = r/(1+r); vectors keep cosine.
           */
          calibration: z.enum(['relative', 'absolute']).default('relative'),
          /**
           * Cairn: weight of the stemmed keyword table ("camped" finds "camping") below the
           * exact-token one (search/lexical.ts); 0 = exact tokens only. Measured in docs/benchmarks.md.
           */
          stemWeight: ratio.default(0.5),
          /**
           * Cairn: spread the top results over distinct files (search/spread.ts): a result
           * from a file not shown yet takes the slot when it scores ≥ spread × the best
           * remaining one. 1 = plain score order; 0.9 measured best (docs/benchmarks.md).
           */
          spread: ratio.default(0.9),
          /**
           * Cairn: the lines a result cites (search/ranges.ts). `folded` = the chunk's lines
           * without blank and heading lines at its edges, and results of one file that
           * overlap or touch joined into one (the freed place goes to the next result);
           * `trimmed` = the edges only; `chunks` = each chunk's lines as indexed.
           */
          ranges: z.enum(['folded', 'trimmed', 'chunks']).default('folded'),
          /**
           * Cairn: "last week", "yesterday", "3 days ago" (search/dates.ts) and dates written
           * out, "1 May, 2022", "July 2022" (search/query-dates.ts), prefer notes of those days.
           */
          relativeDates: z.boolean().default(true),
          /**
           * Cairn: also index one vector per line (dialogue turn) and score a chunk by its best
           * line (index/line-vectors.ts); `auto` = per embedder as measured (docs/benchmarks.md).
           */
          lineVectors: z.enum(['auto', 'on', 'off']).default('auto'),
          temporalDecay: z
            .looseObject({
              enabled: z.boolean().default(false),
              halfLifeDays: z.number().positive().default(30),
            })
            .prefault({}),
          mmr: z
            .looseObject({
              enabled: z.boolean().default(false),
              lambda: ratio.default(0.7),
            })
            .prefault({}),
        })
        .prefault({}),
    })
    .prefault({}),
  cache: z
    .looseObject({
      enabled: z.boolean().default(true),
      maxEntries: posInt.optional(),
    })
    .prefault({}),
});

export const AgentDefaultsSchema = z.looseObject({
  /** The agent's workspace; default `<state>/workspace` (resolution per agent: config/workspace.ts). */
  workspace: z.string().optional(),
  /** Context window (tokens) used for pruning and compaction when the model does not report one. */
  contextTokens: posInt.default(200000),
  userTimezone: z.string().optional(),
  compaction: CompactionSchema.prefault({}),
  contextPruning: ContextPruningSchema.prefault({}),
});

/** OpenClaw 2026.9's agent id rule (the key of `agents.entries`). */
export const AgentIdSchema = z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/, 'letters, digits, "-" and "_" (at most 64)');

/** One `agents.entries.<id>` value; `memory.search` overrides `memory.search` key by key (index/agent-settings.ts). */
export const AgentEntrySchema = z.looseObject({
  name: z.string().optional(),
  default: z.boolean().optional(),
  workspace: z.string().optional(),
});

export const QmdSchema = z.looseObject({
  command: z.string().default('qmd'),
  includeDefaultMemory: z.boolean().default(true),
  sessions: z.looseObject({ enabled: z.boolean().default(false) }).prefault({}),
  update: z.looseObject({ interval: DurationString.default('5m') }).prefault({}),
  searchMode: z.enum(['search', 'vsearch', 'query']).default('search'),
  timeoutMs: posInt.default(4000),
});

/** Chat model used by the assistant turn loop, compaction and memory flush. */
export const LlmSchema = z.looseObject({
  provider: z.enum(['none', 'llama', 'openai', 'anthropic']).default('none'),
  /** Model name sent to the API (openai/anthropic). */
  model: z.string().optional(),
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  /** Local GGUF chat model file (provider "llama"). */
  modelPath: z.string().optional(),
  /** hf: URI downloaded on request into cairn/models/ (provider "llama"). */
  modelUri: z.string().optional(),
  /** Overrides the model's context window (tokens). */
  contextWindow: posInt.optional(),
  maxOutputTokens: posInt.default(4096),
  /**
   * llama.cpp threads of the local chat model (provider "llama"); default: every core but
   * one (llm/llama.ts defaultChatThreads: with every core, generation collapses as soon as
   * other work runs — docs/llm-and-chat.md).
   */
  threads: posInt.optional(),
});

export const CairnSchema = z.looseObject({
  llm: LlmSchema.prefault({}),
  ui: z.looseObject({ theme: z.enum(['system', 'light', 'dark']).default('system') }).prefault({}),
  /**
   * Recall before a prompt (the OpenClaw plugin, openclaw/recall.ts). `compacted`: the current
   * session's compacted part — what its last compaction replaced by a summary — is searched
   * too, also when session search is off (openclaw/compacted-recall.ts; docs/openclaw.md).
   */
  recall: z.looseObject({ compacted: z.boolean().default(true) }).prefault({}),
});

export const ConfigSchema = z.looseObject({
  agents: z
    .looseObject({
      defaults: AgentDefaultsSchema.prefault({}),
      entries: z.record(AgentIdSchema, AgentEntrySchema).default({}),
    })
    .prefault({}),
  memory: z
    .looseObject({
      search: MemorySearchSchema.prefault({}),
      backend: z.enum(['builtin', 'qmd']).default('builtin'),
      qmd: QmdSchema.prefault({}),
    })
    .prefault({}),
  cairn: CairnSchema.prefault({}),
});

export type CairnConfig = z.output<typeof ConfigSchema>;
export type CompactionSettings = z.output<typeof CompactionSchema>;
export type MemoryFlushSettings = z.output<typeof MemoryFlushSchema>;
export type ContextPruningSettings = z.output<typeof ContextPruningSchema>;
export type MemorySearchSettings = z.output<typeof MemorySearchSchema>;
export type LlmSettings = z.output<typeof LlmSchema>;
export type QmdSettings = z.output<typeof QmdSchema>;
export type AgentEntry = z.output<typeof AgentEntrySchema>;

/** Every default, as the app runs with an empty config file. */
export function defaultConfig(): CairnConfig {
  return ConfigSchema.parse({});
}
