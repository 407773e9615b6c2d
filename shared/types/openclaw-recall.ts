/**
 * What Cairn keeps about its life inside OpenClaw (the Cairn plugin, openclaw-plugin/): one
 * recall-log line per prompt OpenClaw was about to send (what Cairn recalled for it, or why
 * nothing), and one compaction record per OpenClaw compaction. Written by Cairn's engine side
 * (electron/engine/openclaw/recall-log.ts), read by the window and the compaction audit.
 */

/** How a prompt's recall ended. */
export type OpenClawRecallOutcome = 'injected' | 'none' | 'timeout' | 'error' | 'skipped';

/** One hit Cairn added to a prompt (or found and left out), as search returned it. */
export interface OpenClawRecallHit {
  /** `path#Lx-Ly`, the citation the model saw. */
  citation: string;
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  source: 'memory' | 'sessions';
  snippet: string;
}

/**
 * One line of `openclaw-recall/<agentId>/<sessionId>.jsonl`: the recall for one prompt.
 * `v` is the line format's version (1).
 */
export interface OpenClawRecallEntry {
  v: 1;
  /** ISO time the prompt's recall started. */
  ts: string;
  agentId: string;
  sessionId: string;
  sessionKey?: string;
  turn: {
    /** The first 200 characters of the user's message. */
    promptPreview: string;
    /** sha256 (hex) of the whole user message: matches the turn in the transcript. */
    promptSha256: string;
  };
  /** The text searched (the message, with the last turns when it alone was short). */
  query: string;
  outcome: OpenClawRecallOutcome;
  /** Why, for every outcome but `injected` (e.g. `heartbeat turn`, `below the score floor`). */
  reason?: string;
  /** Wall time of the recall on Cairn's side, ms. */
  tookMs: number;
  /** The hits injected (empty unless `injected`). */
  hits: OpenClawRecallHit[];
  /** Characters of the `<relevant-memories>` section added to the prompt (0 when none). */
  injectedChars: number;
}

/** One line of `openclaw-compactions.jsonl`: an OpenClaw compaction, as its hooks saw it. */
export interface OpenClawCompactionRecord {
  v: 1;
  /** ISO time of the compaction's end (after_compaction), or its start when only that was seen. */
  ts: string;
  agentId: string;
  sessionId: string;
  sessionKey?: string;
  /** Estimated context tokens before and after, as OpenClaw reported them (null: not reported). */
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** Whether OpenClaw's pre-compaction memory flush ran for this compaction. */
  flushRan: boolean;
  /** ISO time of that flush, when it ran. */
  flushAt?: string;
}
