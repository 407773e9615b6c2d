/**
 * What Cairn shows of OpenClaw's dreaming (its background memory consolidation): the
 * versions of MEMORY.md it can find, where each promoted entry came from with the evidence
 * dreaming recorded, why other candidates were not promoted, and dreaming's own reports.
 * Shared by the engine (electron/engine/dreaming/) and the window; no Node imports here.
 */

/** Trailing annotations OpenClaw reads on an entry line (`<!-- trigger: … -->` etc.). */
export interface EntryAnnotations {
  triggers: string[];
  importance?: number;
  projects: string[];
}

/** One session whose memory_search surfaced a candidate (from the transcript's tool call). */
export interface RecallSession {
  sessionId: string;
  /** The query the model searched with. */
  query: string;
  /** When the tool call was made (the transcript event's timestamp). */
  at?: string;
}

/** What dreaming recorded about one short-term candidate (OpenClaw's recall store). */
export interface RecallEvidence {
  /** OpenClaw's candidate key, e.g. `memory:memory/2026-11-30.md:1:3`. */
  key: string;
  path: string;
  startLine: number;
  endLine: number;
  snippet: string;
  /** Times memory_search returned it. */
  recallCount: number;
  /** Times dreaming's daily ingestion saw it. */
  dailyCount: number;
  groundedCount: number;
  /** Distinct queries that returned it (OpenClaw keeps hashes; `queries` has the texts it logged). */
  uniqueQueries: number;
  queries: string[];
  recallDays: string[];
  firstRecalledAt?: string;
  lastRecalledAt?: string;
  /** Best and average retrieval score of its recalls. */
  maxScore?: number;
  avgScore?: number;
  conceptTags: string[];
  /** Set once promoted into MEMORY.md. */
  promotedAt?: string;
  /** Who the text came from, as OpenClaw classified it (owner / agent / untrusted / system). */
  originClass?: string;
  sessionKind?: string;
  /** Light / REM phase revisits recorded for it. */
  lightHits?: number;
  remHits?: number;
  /** Sessions whose memory_search surfaced it (bounded scan of the transcripts). */
  sessions: RecallSession[];
}

/** An entry of MEMORY.md that a promotion wrote (it carries OpenClaw's promotion marker or a `Source:`). */
export interface PromotedEntry {
  /** 1-based line in the version it is listed under. */
  line: number;
  /** The entry line as written. */
  text: string;
  /** The promotion marker's key (`<!-- openclaw-memory-promotion:KEY -->`). */
  key?: string;
  /** `Source: path#Lx-Ly` on the entry. */
  source?: { path: string; startLine: number; endLine: number };
  /** `[score=… recalls=…]` written by the older append path, when present. */
  score?: number;
  annotations: EntryAnnotations;
  /** What dreaming recorded for this entry's candidate, when the recall store still has it. */
  evidence?: RecallEvidence;
}

/** One version of MEMORY.md. */
export interface MemoryVersion {
  id: string;
  /** `dreaming-backup`: the text dreaming saved just before it rewrote the file; `seen`: a text Cairn read earlier; `current`: on disk now. */
  kind: 'dreaming-backup' | 'seen' | 'current';
  /** When it was saved / first seen / last modified (ISO). */
  at: string;
  /** Plain words for the timeline. */
  label: string;
  contentHash: string;
  text: string;
  /** Entry lines added and removed since the version before (line-level, order ignored). */
  added: string[];
  removed: string[];
  /** Promoted entries that first appear in this version. */
  promotions: PromotedEntry[];
}

/** A candidate dreaming has seen, and whether (and why not) it was promoted. */
export interface CandidateStatus {
  evidence: RecallEvidence;
  promoted: boolean;
  /** Plain reasons it is not (yet) in MEMORY.md, from the recorded counts against the thresholds. */
  reasons: string[];
}

/** The counts by reason from OpenClaw's deep report ("why ranked candidates were not promoted"). */
export interface DeepReportReasons {
  /** The report file, relative to the workspace. */
  path: string;
  date: string;
  /** Lines of the report that give the counts, as OpenClaw wrote them. */
  lines: string[];
}

/** Where dreaming's machine state was read from, and how well it matched this workspace. */
export interface DreamingStoreInfo {
  /** `state/openclaw.sqlite` under the state dir. */
  file: string;
  found: boolean;
  /** `exact`: recorded for this workspace path; `relocated`: recorded for the same workspace at another path (a copied dir). */
  workspaceMatch: 'exact' | 'relocated' | 'none';
  recordedWorkspace?: string;
  /** Why it could not be read (missing, not SQLite, unknown layout). */
  problem?: string;
  /** Rows read and whether a cap cut the read short. */
  rows: number;
  capped: boolean;
}

/** `dreaming.history`: MEMORY.md's timeline with the evidence behind its promotions. */
export interface MemoryHistory {
  agentId: string;
  /** Oldest first; the last is the file on disk now (when it exists). */
  versions: MemoryVersion[];
  /** Promoted entries in MEMORY.md now, with their evidence. */
  promoted: PromotedEntry[];
  /** Candidates not promoted, with why. */
  waiting: CandidateStatus[];
  deepReport?: DeepReportReasons;
  thresholds: { minScore: number; minRecallCount: number; minUniqueQueries: number };
  store: DreamingStoreInfo;
}

/** One of dreaming's files for people. */
export interface DreamingReportFile {
  /** Relative to the workspace: `DREAMS.md` or `memory/dreaming/<phase>/YYYY-MM-DD.md`. */
  path: string;
  kind: 'diary' | 'phase-report';
  phase?: string;
  date?: string;
  bytes: number;
  mtimeMs: number;
}

/** A block of a daily note that dreaming manages (`## Light Sleep`, `## REM Sleep`). */
export interface ManagedBlock {
  /** Relative to the workspace. */
  path: string;
  heading: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
}

/** `dreaming.reports`: dreaming's files and the managed blocks in daily notes. */
export interface DreamingReports {
  agentId: string;
  files: DreamingReportFile[];
  managedBlocks: ManagedBlock[];
}

/** `dreaming.report`: one report's text (bounded). */
export interface DreamingReportText {
  path: string;
  text: string;
  truncated: boolean;
}
