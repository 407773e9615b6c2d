/**
 * Search: search-as-you-type over memory (and sessions when indexed) with filters, the mode
 * and embedder the engine used, warnings, and results; arrow keys move through results and
 * Enter opens the selected one. Ctrl/⌘+K from anywhere lands in the box.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearch } from '../../stores/search';
import { queryTerms } from './highlight';
import { groupSimilar } from './group';
import { loadHistory, remember } from './history';
import { ResultItem, resultHref } from './ResultItem';
import { SearchFilters } from './SearchFilters';
import { RecentSearches, SearchMeta, SearchWarnings } from './SearchStatus';
import type { SearchResult } from '../../../../shared/types/search';
import './search.css';

export const SEARCH_INPUT_ID = 'search-input';

export function SearchPage() {
  const query = useSearch((s) => s.query);
  const setQuery = useSearch((s) => s.setQuery);
  const response = useSearch((s) => s.response);
  const answered = useSearch((s) => s.answered);
  const searching = useSearch((s) => s.searching);
  const error = useSearch((s) => s.error);
  const [sel, setSel] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const terms = useMemo(() => queryTerms(answered), [answered]);
  // Near-identical hits are folded under the best one; the keyboard moves over the groups.
  const groups = useMemo(() => groupSimilar(response?.results ?? []), [response]);
  const results = useMemo(() => groups.map((g) => g.lead), [groups]);

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  useEffect(() => setSel(0), [response]);
  const [history, setHistory] = useState(loadHistory);
  // A query that found something is remembered (history.ts folds the typed prefixes).
  useEffect(() => {
    if (answered && response?.results.length) setHistory(remember(answered));
  }, [answered, response]);
  useEffect(() => {
    document.getElementById(`result-${sel}`)?.scrollIntoView({ block: 'nearest' });
  }, [sel]);

  const onKey = resultKeys(results, sel, setSel, () => setQuery(''));

  return (
    <section className="page search-page" aria-labelledby="search-title">
      <header className="page-header">
        <h1 id="search-title">Search</h1>
        <span className="muted kbd-hint">
          <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+<kbd>K</kbd> from anywhere · <kbd>↑</kbd>
          <kbd>↓</kbd> select · <kbd>Enter</kbd> open
        </span>
      </header>
      <input
        id={SEARCH_INPUT_ID}
        ref={input}
        type="search"
        className="search-box"
        placeholder="Search memory: a question, a hash, a config key…"
        aria-label="Search memory"
        aria-controls="search-results"
        aria-activedescendant={results.length ? `result-${sel}` : undefined}
        autoComplete="off"
        spellCheck={false}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKey}
      />
      <SearchFilters />
      {response && <SearchMeta response={response} shown={results.length} searching={searching} />}
      {response && <SearchWarnings warnings={response.warnings} />}
      {error && (
        <p role="alert" className="error">
          Search failed: {error}
        </p>
      )}
      {!query.trim() && history.length > 0 && <RecentSearches history={history} onPick={setQuery} />}
      {!query.trim() && !response && (
        <p className="empty">
          Type to search MEMORY.md, the daily notes and other notes (and sessions, if indexed). Try a decision, a port number or a config
          key such as <code>reserveTokensFloor</code>.
        </p>
      )}
      {response && results.length === 0 && answered === query.trim() && (
        <p className="empty">
          Nothing scored above minScore for “{answered}”. Try other words, widen the date range, or check that the index is built in Settings.
        </p>
      )}
      <ol id="search-results" className="results" aria-label="Search results" data-answered={answered}>
        {groups.map((g, i) => (
          <ResultItem key={`${g.lead.path}:${g.lead.startLine}`} id={`result-${i}`} r={g.lead} similar={g.similar} terms={terms} count={response?.results.length ?? 0} active={i === sel} />
        ))}
      </ol>
    </section>
  );
}

/** ↑/↓ move the selection over the results, Enter opens the selected one, Escape clears the box. */
function resultKeys(results: readonly SearchResult[], sel: number, setSel: (f: (s: number) => number) => void, clear: () => void) {
  return (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setSel((s) => Math.min(s + 1, results.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setSel((s) => Math.max(s - 1, 0));
    } else if (e.key === 'Enter') {
      const r = results[sel];
      if (r) window.location.hash = resultHref(r);
    } else if (e.key === 'Escape') clear();
  };
}
