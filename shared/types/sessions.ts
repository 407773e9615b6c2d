/**
 * Types of the sessions, pruning preview and compaction channels, shared by the engine and
 * the renderer. No Node or DOM imports.
 */
import type { Message } from './messages';
import type { ContextPruningSettings, PruneDiff, PruneAction, KeptReason, ReplayMode } from './pruning';

export type * from './pruning';

/** Where a session's transcript is kept: a JSONL file, or OpenClaw 2026.9's SQLite store (read-only). */
export type SessionStoreKind = 'jsonl' | 'openclaw-sqlite';

export interface SessionSummary {
  id: string;
  /** Which store holds the transcript; `openclaw-sqlite` sessions are read-only (no compaction, no chat). */
  store: SessionStoreKind;
  /** Notes about reading it (e.g. a transcript version newer than Cairn knows), shown beside the session. */
  notes?: string[];
  /** The sessions.json key, when the index has the session. */
  key: string | undefined;
  /** Absolute path of the transcript (display only; never sent back to the engine). */
  file: string;
  bytes: number;
  /** Entries of the transcript (header excluded). */
  entries: number;
  /** Message entries (all branches). */
  messages: number;
  /** Estimated tokens of the context rebuilt from the transcript (SPEC §2); the system prompt is not in it. */
  estimatedTokens: number;
  /**
   * Estimated tokens of the system prompt (SOUL.md, AGENTS.md, bootstrap files, skills) where
   * OpenClaw recorded its size (`systemPromptReport`); undefined when unknown.
   */
  systemPromptTokens: number | undefined;
  /** OpenClaw's own count of the context at its last call (`totalTokens`, system prompt included), when recorded. */
  recordedTokens: number | undefined;
  /** Compaction entries in the file. */
  compactions: number;
  /** ISO time of the newest entry (or the index's updatedAt). */
  lastActivity: string | undefined;
  contextWindow: number;
  /** Lines that did not parse. */
  malformed: number;
  /** session_info name, when set. */
  name: string | undefined;
}

/** A session store (or one session of it) that could not be read: its sessions are not listed. */
export interface UnreadableStore {
  store: SessionStoreKind;
  /** The file or directory that could not be read (an OpenClaw database, a transcript). */
  source: string;
  /** What is wrong with it (truncated, not an SQLite database, a directory in its place…). */
  error: string;
}

export interface SessionsListResult {
  agentId: string;
  sessionsDir: string;
  sessions: SessionSummary[];
  /** Stores or sessions that could not be read, with the cause; empty when all were read. */
  unreadable: UnreadableStore[];
}

export interface MalformedLineView {
  line: number;
  error: string;
  preview: string;
}

export interface CompactionEntryView {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details: Record<string, unknown> | undefined;
  extract: boolean;
}

/** One entry of the timeline. */
export interface EntryView {
  /** Index in the transcript's entries (file order). */
  index: number;
  /** 1-based line in the file. */
  line: number;
  id: string;
  parentId: string | null;
  type: string;
  timestamp: string;
  /** For `message` entries. */
  role: string | undefined;
  /** Estimated tokens of this entry's message (0 for entries not sent to the model). */
  tokens: number;
  /** Estimated context tokens once this entry is in the context (for the token chart); null off the current branch. */
  contextTokens: number | null;
  /** On the branch the context is built from. */
  onBranch: boolean;
  /** The start of the entry's text. */
  preview: string;
  /**
   * Set for a failed model call (an assistant message with `stopReason: "error"`): its
   * `errorMessage`, e.g. "400 This model's maximum context length is …".
   */
  error?: string | undefined;
  /**
   * The message (message, custom_message and branch_summary entries). A tool result's long
   * text blocks are cut to their first 4,000 chars; `clipped` names them with their full
   * lengths, and `sessions.entryText` pages through the rest.
   */
  message: Message | undefined;
  /** The text blocks of `message` sent cut: content index and full length. */
  clipped?: { block: number; length: number }[];
  compaction: CompactionEntryView | undefined;
  customType: string | undefined;
  /** Every other field of the entry as stored (custom data, unknown entry types). */
  fields: Record<string, unknown>;
}

/** One page of an entry's text block (`sessions.entryText`). */
export interface EntryTextResult {
  entryId: string;
  /** Index of the block in the message's content (0 for string content). */
  block: number;
  /** Char offset of `text` in the whole block. */
  offset: number;
  text: string;
  /** Length of the whole block. */
  length: number;
}

export interface SessionEntriesResult {
  sessionId: string;
  file: string;
  header: Record<string, unknown> | undefined;
  total: number;
  offset: number;
  entries: EntryView[];
  malformed: MalformedLineView[];
  contextWindow: number;
  /** Estimated tokens of the rebuilt context. */
  contextTokens: number;
  /**
   * Set when this first page was answered from the head of a big file while the whole file
   * is parsed: `total`, `malformed`, `contextTokens` and the entries' branch and
   * context figures cover only the head's lines; the next page answers for the whole file.
   */
  partial?: { bytesRead: number; bytes: number };
}

/** One tool result side by side: on disk vs what the model would be sent. */
export interface PruneResultView {
  index: number;
  entryId: string | undefined;
  toolName: string;
  action: PruneAction;
  keptBecause: KeptReason | undefined;
  charsBefore: number;
  charsAfter: number;
  /** Set when this replays OpenClaw's recorded pruning of the result (not a new round). */
  replayed: ReplayMode | undefined;
  /** Images replaced by "[image removed during context pruning]". */
  imagesRemoved: number | undefined;
  /**
   * The start of the text on disk (at most PRUNE_EXCERPT_CHARS): a 100 MB session's full
   * tool outputs would be ~100 MB of JSON for a view that shows excerpts. The rest is
   * fetched on demand with `prune.text`.
   */
  before: string;
  /** Length of the whole text on disk (`before` is all of it when equal to before.length). */
  beforeLength: number;
  /** The start of the text after pruning (at most PRUNE_EXCERPT_CHARS; the rest via `prune.text`). */
  after: string;
  /** Length of the whole text after pruning. */
  afterLength: number;
}

/** How many chars of each side `prune.preview` sends per tool result. */
export const PRUNE_EXCERPT_CHARS = 1200;

/** One page of a tool result's text (`prune.text`): on disk (`before`) or as it would be sent (`after`). */
export interface PruneTextResult {
  entryId: string;
  side: 'before' | 'after';
  /** Char offset of `text` in the whole text. */
  offset: number;
  text: string;
  /** Length of the whole text. */
  length: number;
}

export interface PrunePreviewResult {
  sessionId: string;
  contextWindow: number;
  model: { provider?: string; modelId?: string };
  /** The effective pruning settings (config + overrides, every default filled in by the engine). */
  settings: ContextPruningSettings;
  diff: PruneDiff;
  results: PruneResultView[];
  /** OpenClaw's newest projection marker (what its next call replays), when the session has one. */
  projection: { entryId: string | undefined; replayed: number; frozen: number } | undefined;
  /** The provider-reported prompt size of the newest model call (system prompt included). */
  lastCall: { entryId: string; promptTokens: number } | undefined;
  /** The session's system prompt as OpenClaw recorded it (estimated tokens), when known. */
  systemPromptTokens: number | undefined;
  /** Cairn's estimate of the next call: ceil(pruned chars / 4) + systemPromptTokens. */
  sentTokensEstimate: number;
}

export interface CompactPlanResult {
  sessionId: string;
  possible: boolean;
  reason: string;
  cutEntryId: string | undefined;
  firstKeptEntryId: string;
  previousCompactionId: string | undefined;
  tokensBefore: number;
  keptTokens: number;
  summarizedTokens: number;
  /** tokensAfter if the summary reaches its 16,000-char cap. */
  tokensAfterMax: number;
  keepBudget: number;
  messagesToSummarize: number;
  summarizeEntryIds: string[];
  keptEntryIds: string[];
  mode: 'single' | 'staged';
  stages: number;
  /** The exact prompt of the request (of stage 1 when staged). */
  prompt: { system: string; user: string };
  contextWindow: number;
  /** The summariser that compact.run would use; null = the deterministic extract. */
  /** The window's thresholds (compaction/thresholds.ts; reserve capped at a quarter of a small window, as OpenClaw). */
  thresholds: { reserve: number; reserveCapped: boolean; compactAt: number; flushAt: number };
  summarizer: { provider: string; model: string } | null;
  /** What the deterministic extract would do: carry the previous summary forward, follow or refuse the instructions. */
  extractNote: string;
}

export interface CompactRunResult {
  sessionId: string;
  compacted: boolean;
  reason: string;
  entryId: string | undefined;
  firstKeptEntryId: string | undefined;
  summary: string | undefined;
  extract: boolean;
  extractReason: string | undefined;
  tokensBefore: number;
  tokensAfter: number | undefined;
  /** File name of the checkpoint copy. */
  checkpoint: string | undefined;
  modelCalls: number;
}

export interface CompactProgressEvent {
  opId: string | undefined;
  sessionId: string;
  phase: 'plan' | 'summarize' | 'write' | 'done';
  done: number;
  total: number;
  label: string;
}
