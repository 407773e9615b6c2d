/** Channels and events of the memory index, hybrid search and the memory browser (SPEC §6–§8). */
import { z } from 'zod';
import { ch, ev } from './define';
import type {
  IndexProgress,
  IndexStatus,
  IndexSyncResult,
  MemoryFileInfo,
  MemoryFileText,
  SearchResponse,
} from '../types/search';

export type * from '../types/search';

const AgentId = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, "-" and "_"')
  .max(100);
const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');
/** Workspace-relative path; the engine resolves it and refuses anything outside the memory set. */
const RelPath = z.string().min(1).max(1000);
/** The largest page of a memory file one `memory.read` answers (a page of control characters escapes to 6× in JSON: still under the tab's 64 MB). */
export const MEMORY_PAGE_MAX_BYTES = 8 * 1024 * 1024;

export const SearchQueryRequest = z.object({
  query: z.string().min(1).max(4000),
  agentId: AgentId.optional(),
  maxResults: z.number().int().positive().max(100).optional(),
  minScore: z.number().min(0).max(1).optional(),
  source: z.enum(['memory', 'sessions', 'all']).optional(),
  since: Day.optional(),
  before: Day.optional(),
  /** Override `temporalDecay.enabled` for this query. */
  decay: z.boolean().optional(),
  /** Override `mmr.enabled` for this query. */
  mmr: z.boolean().optional(),
  explain: z.boolean().optional(),
  /** Only entries carrying this trigger phrase (OpenClaw's `<!-- trigger: … -->`). */
  trigger: z.string().min(1).max(200).optional(),
  /** Only entries scoped to this project key (`<!-- project: … -->`). */
  project: z.string().min(1).max(500).optional(),
  /** Only entries of at least this importance (`<!-- importance: N -->`, 1–10). */
  importanceMin: z.number().int().min(1).max(10).optional(),
});

export const searchChannels = {
  /** Hybrid search; syncs first when the index is missing or dirty. */
  'search.query': ch(SearchQueryRequest).returns<SearchResponse>(),
  'index.status': ch(z.object({ agentId: AgentId.optional() })).returns<IndexStatus>(),
  /** Sync the index (incremental, or full with `force`); progress as `index.progress`, cancellable. */
  'index.sync': ch(z.object({ agentId: AgentId.optional(), force: z.boolean().optional() })).returns<IndexSyncResult>(),
  /** MEMORY.md, daily notes (with dates) and other notes of the agent's workspace. */
  'memory.list': ch(z.object({ agentId: AgentId.optional() })).returns<{ files: MemoryFileInfo[] }>(),
  /**
   * A memory file, whole; or, with `offset`/`limit` (bytes), one page of it cut at the page's
   * last newline, with `next` (the offset to ask for next) until the end. The renderer reads
   * every note in pages (renderer/src/stores/memory-read.ts), so no answer carries a 200 MB note.
   */
  'memory.read': ch(
    z.object({
      path: RelPath,
      agentId: AgentId.optional(),
      offset: z.number().int().nonnegative().optional(),
      limit: z.number().int().positive().max(MEMORY_PAGE_MAX_BYTES).optional(),
      /** The 1-based line number of the page's first line (the annotations' lines count from it). */
      line: z.number().int().positive().optional(),
    }),
  ).returns<MemoryFileText>(),
  /** Atomic write; `conflict` when the file changed on disk since `expectedMtime`. */
  'memory.write': ch(
    z.object({
      path: RelPath,
      text: z.string().max(10 * 1024 * 1024),
      expectedMtime: z.number().optional(),
      agentId: AgentId.optional(),
    }),
  ).returns<MemoryFileText>(),
};

export const searchEvents = {
  'index.progress': ev<IndexProgress>(),
  /** A sync finished (tests and the UI wait on it). */
  'index.idle': ev<{ agentId: string; result: IndexSyncResult | null; error?: string }>(),
  /** Memory files changed on disk (from the watcher). */
  'memory.changed': ev<{ agentId: string; paths: string[] }>(),
};
