/**
 * Domain types of the memory index and search, shared by the engine, the CLI, the MCP
 * server and the renderer. Plain data only: no Node, Electron or DOM imports here.
 */

/** Where a chunk came from (SPEC §6). */
export type MemorySource = 'memory' | 'sessions';

/** How a search ran: both sides, keyword only (no embedder / vector side failed), or vector only. */
export type SearchMode = 'hybrid' | 'fts-only' | 'vector-only';

/** Each stage's score for one result (`--explain`, the score breakdown in the UI). */
export interface SearchExplain {
  /** Vector score `1 − cosine distance`; null when the vector side did not return this chunk. */
  vector: number | null;
  /** BM25 score mapped to 0..1 (`r/(1+r)`); null when the keyword side did not return it. */
  text: number | null;
  /** Weighted merge of both sides (before decay); what `minScore` judges. */
  merged: number;
  /** Temporal decay multiplier (1 = no decay / evergreen). */
  decay: number;
  /** 1-based position chosen by MMR; null when MMR is off. */
  mmrRank: number | null;
}

/**
 * OpenClaw 2026.9's recall annotations on a memory entry (`<!-- trigger: … -->`,
 * `<!-- importance: N -->`, `<!-- project: … -->`; electron/engine/index/annotations.ts).
 */
export interface MemoryAnnotations {
  /** Trigger phrases (MEMORY.md / USER.md only): a matching message makes OpenClaw inject the entry. */
  triggers: string[];
  /** 1–10, or null when not set (neutral). */
  importance: number | null;
  /** Repository keys the entry is scoped to. */
  projects: string[];
}

/**
 * Where OpenClaw 2026.9 recorded an entry came from (its agent store's
 * `memory_index_chunk_provenance` and `memory_entry_origins`; electron/engine/openclaw/provenance.ts).
 */
export interface MemoryProvenance {
  /** OpenClaw's origin class; the least trusted one when the cited lines differ. */
  origin: 'owner' | 'agent' | 'untrusted' | 'system';
  /** The kind of session it came from (`interactive`, `cron`, `heartbeat`, `subagent`, `unknown`). */
  sessionKind: string;
  /** When OpenClaw observed it (ISO 8601). */
  observedAt: string;
  /** The lineage key newer observations supersede, when recorded. */
  supersedesKey?: string;
  /** The sessions the entry was derived from (entry origins), when recorded. */
  sessions?: string[];
}

/**
 * One line of a hit chosen for a reader: a line that answers the query, or a line
 * of context a reader needs to place it (the note's heading or date, the question a reply
 * answers). Lines are numbered as the hit's citation numbers them.
 */
export interface PickedLine {
  /** 1-based line number in the cited file (for a session: the line of the rendered transcript). */
  line: number;
  /** The line as read (markup that is not content removed; a line longer than the budget cut around its match, with "…"). */
  text: string;
  /** How well the line answers the query, 0..1; 0 for a context line. */
  score: number;
  /** `match`: picked because it answers; `context`: kept so a reader can place a match. */
  role: 'match' | 'context';
}

/** One search hit (SPEC §7). */
export interface SearchResult {
  /** Workspace-relative memory path (`memory/2024-05-08.md`) or `sessions/<file>.jsonl`. */
  path: string;
  startLine: number;
  endLine: number;
  /** Final score: merged × decay. */
  score: number;
  /** At most 700 characters of the chunk. */
  snippet: string;
  source: MemorySource;
  /** `path#L<s>-L<e>` */
  citation: string;
  explain?: SearchExplain;
  /** The cited lines' annotations, when they carry any. */
  annotations?: MemoryAnnotations;
  /** Where OpenClaw recorded the cited lines came from, when it did. */
  provenance?: MemoryProvenance;
  /**
   * The lines that answer, in line order, with the context lines that place them;
   * absent when no line of the chunk scored (then `snippet` is what a reader gets).
   */
  lines?: PickedLine[];
  /** `lines` as one text a model reads: picks in order, a gap between them marked "…". */
  excerpt?: string;
  /** YYYY-MM-DD the cited lines were written (a daily note's file name, a session message's date), when known. */
  day?: string;
}

export interface EmbedderInfo {
  provider: string;
  model: string;
}

export interface SearchResponse {
  results: SearchResult[];
  mode: SearchMode;
  embedder: EmbedderInfo | null;
  warnings: string[];
  tookMs: number;
  /**
   * Which backend served this search (`memory.backend`; "builtin" also when QMD failed and
   * the built-in index answered instead). Set by the search entry point (qmd/backend.ts);
   * absent only on direct MemoryIndex.search calls.
   */
  backend?: 'builtin' | 'qmd';
}

/** `index.status` */
export interface IndexStatus {
  agentId: string;
  /** The SQLite file. */
  indexFile: string;
  /** False before the first sync. */
  exists: boolean;
  files: number;
  chunks: number;
  /** ISO time of the last finished sync; null if never. */
  lastSync: string | null;
  mode: SearchMode;
  embedder: EmbedderInfo | null;
  /** `vec0` when sqlite-vec loaded, `fallback` for the in-process cosine scan. */
  vector: 'vec0' | 'fallback' | 'none';
  /** Files changed on disk (or settings changed) since the last sync. */
  dirty: boolean;
  sources: MemorySource[];
  warnings: string[];
  /** Memory files the last sync could not read (permissions, I/O errors): skipped, the rest indexed. */
  unreadable?: UnreadableFile[];
}

/** A memory file a sync skipped because it could not be read. */
export interface UnreadableFile {
  /** Path as shown elsewhere (relative to the workspace, or absolute for extraPaths). */
  path: string;
  /** The error code and message, e.g. "EACCES: permission denied". */
  reason: string;
}

/** `index.sync` result (also `cairn index --json`). */
export interface IndexSyncResult {
  files: number;
  chunks: number;
  /** Texts the embedder computed vectors for (cache misses): chunk bodies and, with line vectors, line units. */
  embedded: number;
  durationMs: number;
  mode: SearchMode;
  /** True when the whole index was rebuilt (settings/embedder changed or forced). */
  full?: boolean;
  /** Files skipped because they could not be read (empty when all were). */
  unreadable?: UnreadableFile[];
}

/** `index.progress` event payload. */
export interface IndexProgress {
  agentId: string;
  opId: string | undefined;
  phase: 'scan' | 'chunk' | 'embed' | 'write' | 'done';
  filesDone: number;
  filesTotal: number;
  chunksDone: number;
  chunksTotal: number;
}

export type MemoryFileKind = 'long-term' | 'daily' | 'note' | 'extra';

/** One entry of the memory browser. */
export interface MemoryFileInfo {
  /** Workspace-relative path (forward slashes). */
  path: string;
  kind: MemoryFileKind;
  /** YYYY-MM-DD for daily notes. */
  date: string | null;
  size: number;
  /** Milliseconds since the epoch. */
  mtime: number;
}

export interface MemoryFileText {
  path: string;
  text: string;
  /** The whole file's size in bytes (a page's too). */
  size: number;
  mtime: number;
  /** A page (`memory.read` with `offset`/`limit`): the byte offset of its first byte. */
  offset?: number;
  /** A page that is not the file's last: the byte offset of the next page. */
  next?: number;
  /** The lines (1-based) that carry OpenClaw annotations, and what they say; absent when none. */
  annotations?: LineAnnotations[];
  /** Line ranges OpenClaw recorded a provenance for (electron/engine/openclaw/provenance.ts); absent when none. */
  provenance?: LineProvenance[];
}

/** The provenance of lines `startLine`–`endLine` (1-based) of a memory file. */
export interface LineProvenance {
  startLine: number;
  endLine: number;
  provenance: MemoryProvenance;
}

/** One annotated line of a memory file. */
export interface LineAnnotations {
  line: number;
  annotations: MemoryAnnotations;
}
