/**
 * The search-backend seam (SPEC §9): what every search entry point — the
 * `search.query` handler, `cairn search`, the MCP `memory_search` tool and the chat loop's
 * `memory_search` — calls, through `ctx.searchBackend()`. Two implementations: the built-in
 * index (search/builtin-backend.ts) and QMD with a fall-back to the built-in one
 * (qmd/search-backend.ts). Which one answers is chosen where the engine is assembled
 * (electron/engine/search-backend.ts), so the search pipeline never imports QMD.
 *
 * On the ground floor (core/) because the engine context names it, so every domain's type
 * arrow to the context points down. Types only, importing nothing but shared types: anything
 * more here would pull the pipeline into every module that imports the context.
 */
import type { SearchResponse } from '../../../shared/types/search';

/** A search request in the engine (the contract's `search.query` request plus its signal). */
export interface SearchRequest {
  query: string;
  maxResults?: number | undefined;
  minScore?: number | undefined;
  source?: 'memory' | 'sessions' | 'all' | undefined;
  since?: string | undefined;
  before?: string | undefined;
  decay?: boolean | undefined;
  mmr?: boolean | undefined;
  explain?: boolean | undefined;
  /** Annotation filters (OpenClaw's trigger / project / importance comments). */
  trigger?: string | undefined;
  project?: string | undefined;
  importanceMin?: number | undefined;
  /**
   * Each result's `lines` as a packer wants them (the recall section): every line
   * that answers at all, not only the few near the best that a reader is shown.
   */
  packLines?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/** Answers an agent's memory searches; the response says which backend answered. */
export interface SearchBackend {
  search(agentId: string, req: SearchRequest): Promise<SearchResponse>;
}
