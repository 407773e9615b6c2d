/**
 * One `qmd search|vsearch|query` over the wanted collections of a request's source, and its
 * JSON turned into Cairn results (results.ts) with the paths Cairn shows.
 */
import type { QmdSettings } from '../config/schema';
import type { SearchResponse, SearchResult } from '../../../shared/types/search';
import { resultPathResolver, type WantedCollection } from './collections';
import { parseQmdResults } from './results';
import type { RunQmd } from './refresh';

export interface QmdSearchRequest {
  query: string;
  maxResults: number;
  source?: 'memory' | 'sessions' | 'all' | undefined;
  explain?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** Files were just exported: wait (bounded) for the refresh that picks them up. */
  waitForRefresh?: boolean | undefined;
}

/** Run the search; throws the command's {@link QmdError} on failure. */
export async function runQmdSearch(run: RunQmd, s: QmdSettings, all: readonly WantedCollection[], req: QmdSearchRequest): Promise<Omit<SearchResponse, 'tookMs'>> {
  const wanted = all.filter((w) => !req.source || req.source === 'all' || w.source === req.source);
  const warnings: string[] = [];
  let results: SearchResult[] = [];
  if (wanted.length === 0) {
    warnings.push(
      req.source === 'sessions'
        ? 'the QMD sessions collection is off (memory.qmd.sessions.enabled)'
        : 'QMD has no collections to search (memory.qmd.includeDefaultMemory is off and sessions are off)',
    );
  } else {
    // One line: a newline would turn `qmd query` input into its typed-query grammar.
    const query = req.query.replace(/\s+/g, ' ').trim();
    const args = [s.searchMode, '--json', '-n', String(req.maxResults), ...wanted.flatMap((w) => ['-c', w.name]), '--', query];
    const stdout = await run(args, s.timeoutMs, req.signal);
    results = parseQmdResults(stdout, await resultPathResolver(wanted), { explain: req.explain, mode: s.searchMode }).slice(0, req.maxResults);
  }
  const mode = s.searchMode === 'search' ? 'fts-only' : s.searchMode === 'vsearch' ? 'vector-only' : 'hybrid';
  return { results, mode, embedder: s.searchMode === 'search' ? null : { provider: 'qmd', model: s.searchMode }, warnings, backend: 'qmd' };
}
