/**
 * Domain types of the optional QMD backend (SPEC §9), shared by the engine, the CLI and the
 * renderer. Plain data only: no Node, Electron or DOM imports here.
 */
import type { MemorySource } from './search';

/** One QMD collection Cairn keeps for an agent. */
export interface QmdCollectionInfo {
  name: string;
  /** Absolute directory QMD indexes. */
  path: string;
  /** QMD's `--mask` glob. */
  pattern: string;
  source: MemorySource;
}

/** `qmd.status` for one agent. */
export interface QmdAgentStatus {
  agentId: string;
  /** `<state>/cairn/qmd/<agentId>` */
  home: string;
  collections: QmdCollectionInfo[];
  /** ISO time of the last successful `qmd update`; null if never. */
  lastUpdate: string | null;
  /** ISO time of the last successful `qmd embed`; null if never (or not needed). */
  lastEmbed: string | null;
  /** A refresh (collections, update, embed) is running. */
  updating: boolean;
  /** The last QMD failure in this run (search or refresh); null when none. */
  lastError: string | null;
  /** Searches use the built-in index until this ISO time after failures; null = QMD is tried. */
  retryAt: string | null;
}

/** `qmd.status` */
export interface QmdStatus {
  /** `memory.backend` */
  backend: 'builtin' | 'qmd';
  /** `memory.qmd.command` */
  command: string;
  searchMode: 'search' | 'vsearch' | 'query';
  /** Present when the backend is qmd. */
  agent: QmdAgentStatus | null;
}
