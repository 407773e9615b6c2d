/**
 * Types of the compaction audit ("what each compaction lost") and the MEMORY.md health list
 *, shared by the engine, the CLI (`cairn audit --json`) and the UI. No Node here.
 */

/** Where something was said: the entry, its line (JSONL line, or seq + 1 in OpenClaw's SQLite store) and a citation `cairn get` opens. */
export interface SaidAt {
  entryId: string;
  line: number;
  /** `sessions/<id>.jsonl#L<line>`. */
  cite: string;
  /** `user`, `assistant`, `toolResult`, or `summary` (said in the earlier summary this one replaced). */
  role: string;
  /** When it was said (the entry's timestamp). */
  timestamp?: string | undefined;
  /** The sentence around it, cut to 200 characters. */
  excerpt: string;
}

/** An identifier of the compacted part that neither the summary nor the flush kept. */
export interface LostIdentifier {
  value: string;
  /** The first place it was said. */
  at: SaidAt;
  /** How many times the compacted part says it. */
  mentions: number;
}

/** A pending ask, an open TODO or a decision of the compacted part that the summary dropped. */
export interface LostItem {
  text: string;
  at: SaidAt;
}

/** The memory flush before a compaction, as far as the state dir tells. */
export interface AuditFlush {
  /** true / false when a record says so; null when nothing records it (OpenClaw's flush leaves no trace in the transcript). */
  ran: boolean | null;
  /** ISO time of the flush, when recorded. */
  at?: string | undefined;
  /** Where `ran`/`at` came from. */
  evidence: string;
  /** The note lines counted as "what the flush wrote" (see docs/audit.md for the rule). */
  wrote: { path: string; line: number; text: string }[];
  /** True when the notes were changed after the compaction too, so some counted lines may be later. */
  approximate: boolean;
  /** The flush threshold (tokens) of the session's window, and how many tokens under it the compaction's `tokensBefore` was (negative: over). */
  threshold?: number | undefined;
  underThreshold?: number | undefined;
}

/** One compaction and what it lost. */
export interface CompactionAudit {
  /** The compaction entry's id and where it sits. */
  id: string;
  ordinal: number;
  line: number;
  cite: string;
  timestamp: string;
  tokensBefore: number | undefined;
  tokensAfter: number | undefined;
  /** The configured compaction threshold (tokens) and how far below/above it this one ran. */
  threshold?: number | undefined;
  /** Cairn's deterministic extract rather than a model summary. */
  extract: boolean;
  /** Where the compaction came from, when recorded (OpenClaw's `fromHook`, Cairn's own). */
  origin: string;
  /** The compacted part: entries and messages between the previous kept boundary and this one's. */
  compacted: { fromLine: number; toLine: number; messages: number; identifiers: number };
  /** The earlier summary it replaced (a summary of a summary), if any. */
  summaryOf?: { id: string; ordinal: number; line: number; cite: string; chars: number } | undefined;
  summaryChars: number;
  flush: AuditFlush;
  lost: { identifiers: LostIdentifier[]; asks: LostItem[]; todos: LostItem[]; decisions: LostItem[] };
  /** Lists are capped at 200 items; these are the full counts. */
  lostCounts: { identifiers: number; asks: number; todos: number; decisions: number };
  /** Safeguard retries/failures OpenClaw recorded in the entry's details (empty when none). */
  safeguard: string[];
}

/** The identifier policy the audit judged "kept" by (agents.defaults.compaction.identifierPolicy). */
export type AuditIdentifierPolicy = 'strict' | 'off' | 'custom';

export interface SessionAudit {
  agentId: string;
  sessionId: string;
  store: string;
  policy: AuditIdentifierPolicy;
  /** One line for a person: "2 of 3 compactions lost identifiers; the last one lost `ZX-4471`, `db/pool.ts`". */
  summary: string;
  compactions: CompactionAudit[];
}

/** One session's line in the state-dir summary. */
export interface StateAuditSession {
  sessionId: string;
  compactions: number;
  lostIdentifiers: number;
  /** Identifiers the session's last compaction lost (up to 5). */
  lastLost: string[];
  error?: string | undefined;
}

export interface StateAudit {
  agentId: string;
  policy: AuditIdentifierPolicy;
  /** "4 of 19 compactions lost identifiers; the last one lost `ZX-4471`, `db/pool.ts`". */
  summary: string;
  compactions: number;
  withLostIdentifiers: number;
  /** The newest compaction that lost identifiers: its session, id and what it lost (up to 5). */
  last?: { sessionId: string; compactionId: string; timestamp: string; identifiers: string[]; at: SaidAt[] } | undefined;
  sessions: StateAuditSession[];
}

/** A MEMORY.md entry (a bullet or a paragraph line) with its place. */
export interface MemoryEntryRef {
  path: string;
  line: number;
  text: string;
}

export type HealthKind = 'duplicate' | 'stale-source' | 'never-recalled' | 'contradiction';

/** One item of the health list, with its evidence. */
export interface HealthItem {
  kind: HealthKind;
  /** The MEMORY.md entry the item is about. */
  entry: MemoryEntryRef;
  /** A sentence for a person. */
  message: string;
  /** The other entry (duplicate), the later note line (contradiction), or the cited source (stale). */
  evidence: MemoryEntryRef[];
  /** duplicate: `text` (normalised text) or `vector` (the index's stored vectors); contradiction: the key. */
  detail?: string | undefined;
  /** The edit that would fix it, as whole-file text (shown as a diff first; applied only where writing is on). */
  fix?: { kind: 'remove' | 'merge'; path: string; text: string } | undefined;
}

export interface MemoryHealth {
  agentId: string;
  /** MEMORY.md's path relative to the workspace, and whether it exists. */
  path: string;
  exists: boolean;
  entries: number;
  items: HealthItem[];
  /** Whether recall data could be read: `known` (OpenClaw's recall store found), or `unknown` with why. */
  recall: { state: 'known' | 'unknown'; reason?: string | undefined };
  /** Whether near-duplicates were also judged by the index's stored vectors. */
  vectors: { used: boolean; reason?: string | undefined };
  /** Whether edits may be applied (the state dir is writable). */
  writable: boolean;
  /** MEMORY.md's mtime when read (for the write's conflict check). */
  mtimeMs?: number | undefined;
}
