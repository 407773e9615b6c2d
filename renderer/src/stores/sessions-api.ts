/**
 * The Sessions store's view of the engine: the shapes the pages render, and the calls that
 * fill them from the contract's session, pruning and compaction channels. Mapping lives
 * here so the pages never depend on wire details.
 */
import type { RawEntry } from '../pages/sessions/entry-types';
import type { MalformedLineView } from '../../../shared/types/sessions';
import type { ContextPruningSettings } from '../../../shared/types/pruning';

/** One row of the session list. */
export interface SessionRow {
  sessionId: string;
  key: string | undefined;
  title: string | undefined;
  /** Epoch ms of the last activity. */
  updatedAt: number | undefined;
  /** Estimated context tokens now (transcript only). */
  tokens: number;
  /** Estimated system prompt tokens, where OpenClaw recorded its size. */
  systemPromptTokens: number | undefined;
  /** OpenClaw's own count at its last call (system prompt included), when recorded. */
  recordedTokens: number | undefined;
  contextWindow: number;
  messages: number;
  compactions: number;
  bytes: number;
  entries: number;
  /** Which store holds it: OpenClaw's SQLite store is read-only (no compaction, no chat). */
  store: 'jsonl' | 'openclaw-sqlite';
}

export interface CompactionInfo {
  id: string;
  /** 1-based, oldest first. */
  ordinal: number;
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  /** Estimated tokens of the context right after this compaction. */
  tokensAfter: number | undefined;
  /** Cairn's estimate of the context just before it. */
  estimatedTokensBefore: number | undefined;
  /** The entry's own tokensAfter (OpenClaw writes one). */
  recordedTokensAfter: number | undefined;
  /** Whose figures tokensBefore / recordedTokensAfter are. */
  recorder: 'openclaw' | 'cairn';
  extract: boolean;
  timestamp: string | undefined;
  details: { readFiles?: string[]; modifiedFiles?: string[] } | undefined;
}

/** Estimated context tokens per turn over the session's life, with the config thresholds. */
export interface TokenSeries {
  points: { index: number; entryId: string; tokens: number; compaction: boolean }[];
  contextWindow: number;
  /** Memory flush runs at or above this (contextWindow − reserveTokensFloor − softThresholdTokens). */
  flushThreshold: number;
  /** Compaction runs above this (contextWindow − effective reserve). */
  compactionThreshold: number;
}

export interface SessionOverview {
  compactions: CompactionInfo[];
  series: TokenSeries;
}

/** Settings tried in the pruning view; sent as overrides, never saved. */
export interface PruneOverrides {
  contextWindow?: number;
  ttl?: string;
  softTrimRatio?: number;
  hardClearRatio?: number;
  keepLastAssistants?: number;
  /** Treat the prompt cache as expired (prune regardless of the TTL). */
  ignoreTtl?: boolean;
  /** ISO time to evaluate the TTL at. */
  now?: string;
}

export type PruneAction = 'kept' | 'soft-trimmed' | 'cleared';

export interface PruneRow {
  entryId: string | undefined;
  toolName: string;
  action: PruneAction;
  keptBecause: string | undefined;
  charsBefore: number;
  charsAfter: number;
  /** Set when this replays OpenClaw's recorded pruning (not a new round). */
  replayed: 'soft' | 'hard' | undefined;
  imagesRemoved: number | undefined;
  /** The start of the text on disk (the engine sends excerpts; `fetchPruneText` the rest). */
  before: string;
  /** Length of the whole text on disk. */
  beforeLength: number;
  /** The start of what the model would be sent for this result (set when it changed). */
  after: string | undefined;
  /** Length of the whole pruned text. */
  afterLength: number;
}

export interface PrunePreviewView {
  gate: { open: boolean; reason: string; lastCallAt: number | undefined; ttlMs: number; now: number };
  contextWindow: number;
  ratioBefore: number;
  ratioAfter: number;
  totalCharsBefore: number;
  totalCharsAfter: number;
  softTrimmed: number;
  cleared: number;
  kept: number;
  /** Results pruned again by OpenClaw's replay. */
  replayed: number;
  /** The provider-reported prompt size of the newest call. */
  lastCall: { entryId: string; promptTokens: number } | undefined;
  /** Cairn's estimate of the next call (pruned messages + the recorded system prompt). */
  sentTokensEstimate: number;
  systemPromptTokens: number | undefined;
  rows: PruneRow[];
  /** The settings the preview ran with (config + overrides; the engine fills in the defaults). */
  settings: ContextPruningSettings;
}

export interface CompactPlanView {
  /** First kept entry: the cut falls just before it (undefined with "all"). */
  firstKeptEntryId: string | undefined;
  /** Entries the summary would replace. */
  summarisedEntryIds: string[];
  tokensBefore: number;
  /** Tokens kept verbatim. */
  keptTokens: number;
  /** Tokens after, if the summary reaches its 16,000-char cap. */
  tokensAfterMax: number;
  /** 1 = one request; more = summarised in stages, then merged. */
  stages: number;
  /** The exact prompt: system and user text. */
  prompt: { system: string; user: string };
  /** What would write the summary. */
  summariser: { kind: 'model' | 'extract'; label: string };
  /** Set when compaction can not run now (read-only state dir, nothing to compact…). */
  blockedReason: string | undefined;
  previousSummary: boolean;
  /** What the deterministic extract does with the instructions (followed / refused), and the previous summary. */
  extractNote: string;
}

export interface CompactResultView {
  compaction: CompactionInfo;
  tokensBefore: number;
  tokensAfter: number;
  /** Why the deterministic extract was used, when it was. */
  extractReason: string | undefined;
}

export type { RawEntry };

// ---- calls ----------------------------------------------------------------------------

import { api } from '../api';
import type { CallOptions } from '../../../shared/client';
import type { SessionOverview as WireOverview } from '../../../shared/types/session-view';
import type { EntryView, UnreadableStore } from '../../../shared/types/sessions';

/** The list of sessions of the default agent. */
export async function fetchList(): Promise<{ sessionsDir: string; sessions: SessionRow[]; unreadable: UnreadableStore[] }> {
  const r = await api['sessions.list']({});
  return {
    sessionsDir: r.sessionsDir,
    unreadable: r.unreadable,
    sessions: r.sessions.map((s) => {
      const t = s.lastActivity ? Date.parse(s.lastActivity) : NaN;
      return {
        sessionId: s.id,
        key: s.key,
        title: s.name,
        updatedAt: Number.isFinite(t) ? t : undefined,
        tokens: s.estimatedTokens,
        systemPromptTokens: s.systemPromptTokens,
        recordedTokens: s.recordedTokens,
        store: s.store,
        contextWindow: s.contextWindow,
        messages: s.messages,
        compactions: s.compactions,
        bytes: s.bytes,
        entries: s.entries,
      };
    }),
  };
}

/** An entry as the timeline renders it: the stored fields back in one object. */
function toRaw(v: EntryView): RawEntry {
  return {
    ...v.fields,
    type: v.type,
    id: v.id,
    parentId: v.parentId,
    timestamp: v.timestamp,
    $tokens: v.tokens,
    $line: v.line,
    ...(v.clipped ? { $clipped: v.clipped } : {}),
    ...(v.customType !== undefined ? { customType: v.customType } : {}),
    ...(v.type === 'message' && v.message ? { message: v.message } : {}),
    ...(v.compaction ? { summary: v.compaction.summary, firstKeptEntryId: v.compaction.firstKeptEntryId, tokensBefore: v.compaction.tokensBefore, details: v.compaction.details } : {}),
  };
}

/** One page of a session's entries, in file order. */
export async function fetchEntries(
  sessionId: string,
  offset: number,
  limit: number,
): Promise<{ total: number; entries: RawEntry[]; malformed: MalformedLineView[]; partial: { bytesRead: number; bytes: number } | undefined }> {
  const r = await api['sessions.entries']({ sessionId, offset, limit });
  // `malformed` covers the whole file on every page (line number, parse error, raw text),
  // except a `partial` first page (answered from a big file's head: its total too).
  return { total: r.total, entries: r.entries.map(toRaw), malformed: r.malformed, partial: r.partial };
}

/** The whole text of a tool-result block that `sessions.entries` sent cut, fetched in pages. */
export async function fetchEntryText(sessionId: string, entryId: string, block: number): Promise<string> {
  const parts: string[] = [];
  let offset = 0;
  for (;;) {
    const r = await api['sessions.entryText']({ sessionId, entryId, block, offset });
    parts.push(r.text);
    offset += r.text.length;
    if (offset >= r.length || r.text.length === 0) return parts.join('');
  }
}

/** The token chart and compaction history of a session. */
export async function fetchOverview(sessionId: string): Promise<SessionOverview> {
  const o: WireOverview = await api['sessions.overview']({ sessionId });
  return {
    compactions: o.compactions.map((c) => ({
      id: c.id,
      ordinal: c.ordinal,
      summary: c.summary,
      firstKeptEntryId: c.firstKeptEntryId,
      tokensBefore: c.tokensBefore,
      tokensAfter: c.tokensAfter,
      estimatedTokensBefore: c.estimatedTokensBefore,
      recordedTokensAfter: c.recordedTokensAfter,
      recorder: c.recorder,
      extract: c.extract,
      timestamp: c.timestamp,
      details: c.details ? { readFiles: c.details.readFiles ?? [], modifiedFiles: c.details.modifiedFiles ?? [] } : undefined,
    })),
    series: { points: o.points, contextWindow: o.contextWindow, flushThreshold: o.flushThreshold, compactionThreshold: o.compactionThreshold },
  };
}

/** The prune.preview request for the settings tried in the view. */
function pruneRequest(sessionId: string, o: PruneOverrides) {
  const overrides: Record<string, unknown> = {};
  if (o.ttl !== undefined) overrides.ttl = o.ttl;
  if (o.softTrimRatio !== undefined) overrides.softTrimRatio = o.softTrimRatio;
  if (o.hardClearRatio !== undefined) overrides.hardClearRatio = o.hardClearRatio;
  if (o.keepLastAssistants !== undefined) overrides.keepLastAssistants = o.keepLastAssistants;
  return {
    sessionId,
    ...(Object.keys(overrides).length ? { overrides } : {}),
    ...(o.contextWindow !== undefined ? { contextWindowTokens: o.contextWindow } : {}),
    ...(o.now !== undefined ? { now: o.now } : {}),
    ...(o.ignoreTtl ? { ignoreTtl: true } : {}),
  };
}

/**
 * A tool result's whole text, on disk (`before`) or as the preview pruned it (`after`),
 * fetched in pages (the preview carries excerpts only). `now` is the preview's gate time,
 * so the "after" text is the one the preview showed.
 */
export async function fetchPruneText(sessionId: string, o: PruneOverrides, now: number, entryId: string, side: 'before' | 'after'): Promise<string> {
  const parts: string[] = [];
  let offset = 0;
  for (;;) {
    const r = await api['prune.text']({ ...pruneRequest(sessionId, o), now: new Date(now).toISOString(), entryId, side, offset });
    parts.push(r.text);
    offset += r.text.length;
    if (offset >= r.length || r.text.length === 0) return parts.join('');
  }
}

/** The engine's prune preview with the settings tried in the view (never saved). */
export async function fetchPrune(sessionId: string, o: PruneOverrides): Promise<PrunePreviewView> {
  const r = await api['prune.preview'](pruneRequest(sessionId, o));
  const d = r.diff;
  return {
    gate: { open: d.gate.open, reason: d.gate.reason, lastCallAt: d.gate.lastCallAt, ttlMs: d.gate.ttlMs, now: d.gate.now },
    contextWindow: r.contextWindow,
    ratioBefore: d.ratioBefore,
    ratioAfter: d.ratioAfter,
    totalCharsBefore: d.totalCharsBefore,
    totalCharsAfter: d.totalCharsAfter,
    softTrimmed: d.softTrimmed,
    cleared: d.cleared,
    kept: r.results.filter((x) => x.action === 'kept').length,
    replayed: d.replayed ?? 0,
    lastCall: r.lastCall,
    sentTokensEstimate: r.sentTokensEstimate,
    systemPromptTokens: r.systemPromptTokens,
    rows: r.results.map((x) => ({
      entryId: x.entryId,
      toolName: x.toolName,
      action: x.action,
      keptBecause: x.keptBecause,
      charsBefore: x.charsBefore,
      charsAfter: x.charsAfter,
      replayed: x.replayed,
      imagesRemoved: x.imagesRemoved,
      before: x.before,
      beforeLength: x.beforeLength,
      after: x.action === 'kept' ? undefined : x.after,
      afterLength: x.afterLength,
    })),
    settings: r.settings,
  };
}

/** The dry run of a compaction (no model, no write). */
export async function fetchPlan(sessionId: string, o: { instructions: string; all: boolean }): Promise<CompactPlanView> {
  const r = await api['compact.plan']({ sessionId, ...(o.instructions.trim() ? { instructions: o.instructions.trim() } : {}), ...(o.all ? { all: true } : {}) });
  return {
    firstKeptEntryId: r.cutEntryId,
    summarisedEntryIds: r.summarizeEntryIds,
    tokensBefore: r.tokensBefore,
    keptTokens: r.keptTokens,
    tokensAfterMax: r.tokensAfterMax,
    prompt: r.prompt,
    stages: r.stages,
    summariser: r.summarizer ? { kind: 'model', label: `${r.summarizer.provider} · ${r.summarizer.model}` } : { kind: 'extract', label: '' },
    blockedReason: r.possible ? undefined : r.reason,
    previousSummary: r.previousCompactionId !== undefined,
    extractNote: r.extractNote,
  };
}

/** Compact now; progress arrives as `compact.progress` with `opts.opId`. */
export async function runCompact(sessionId: string, o: { instructions: string; all: boolean }, opts: CallOptions): Promise<CompactResultView> {
  const r = await api['compact.run']({ sessionId, ...(o.instructions.trim() ? { instructions: o.instructions.trim() } : {}), ...(o.all ? { all: true } : {}) }, opts);
  if (!r.compacted || !r.entryId || r.summary === undefined || r.firstKeptEntryId === undefined) throw new Error(`Not compacted: ${r.reason}`);
  return {
    compaction: {
      id: r.entryId,
      /** Set by the store from the history. */
      ordinal: 0,
      summary: r.summary,
      firstKeptEntryId: r.firstKeptEntryId,
      tokensBefore: r.tokensBefore,
      tokensAfter: r.tokensAfter,
      estimatedTokensBefore: r.tokensBefore,
      recordedTokensAfter: undefined,
      recorder: 'cairn',
      extract: r.extract,
      timestamp: undefined,
      details: undefined,
    },
    tokensBefore: r.tokensBefore,
    tokensAfter: r.tokensAfter ?? 0,
    extractReason: r.extractReason,
  };
}
