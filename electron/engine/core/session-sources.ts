/**
 * The session-sources seam: sessions the memory index lists beyond the agent's own JSONL
 * files — today the sessions of OpenClaw's SQLite store (sessions/store/search-sources.ts).
 * The index (floor 2) sits below the sessions layer (floor 5) and must not import it, so the
 * engine's root (electron/engine/assemble.ts) hands the provider to `createContext`, and the
 * index asks `ctx.storeSessionSources(agentId)`. Types only: the index's own listing
 * (index/sources.ts) re-exports them.
 */
import type { MemorySource } from '../../../shared/types/search';

/**
 * A source that is not a file of its own: a session in OpenClaw's SQLite store. Its
 * "mtime" and "size" are what the sync compares to find it changed (a fingerprint of the
 * session's rows, not bytes on disk); its text is one line per event, `lineNumbers[i]`
 * being the transcript line (seq + 1) of line i, so citations name the same lines as a
 * JSONL export of the session.
 */
export interface VirtualSource {
  stat(): { mtimeMs: number; size: number } | undefined;
  read(): { text: string; lineNumbers: number[] };
}

/** A file to index: its absolute location and the path shown in results. */
export interface SourceFile {
  abs: string;
  /** Workspace-relative (`memory/2024-05-08.md`), `sessions/<file>.jsonl`, or absolute for extraPaths outside the workspace. */
  path: string;
  source: MemorySource;
  /** Set for a source read through a store rather than from `abs` (which then only names it). */
  virtual?: VirtualSource;
}

/** The store sessions of an agent as index sources (none when its stores hold none). */
export type StoreSessionSources = (agentId: string) => Promise<SourceFile[]>;
