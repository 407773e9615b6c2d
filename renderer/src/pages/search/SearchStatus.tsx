/**
 * The parts of the Search page around the results: which backend, mode and embedder answered
 * (with the count and time), the engine's warnings, a failure, and the recent searches.
 */
import type { SearchResponse } from '../../../../shared/types/search';

/** Backend, mode, embedder, result count and time of the last answer. */
export function SearchMeta({ response, shown, searching }: { response: SearchResponse; shown: number; searching: boolean }) {
  return (
    <p className="search-meta" data-testid="search-meta">
      {/* Which backend served the search: QMD, or the built-in index (also after a QMD fallback). */}
      <span className="mode-badge" data-testid="search-backend">{response.backend === 'qmd' ? 'QMD' : 'built-in'}</span>{' '}
      <span className={`mode-badge mode-${response.mode}`}>{response.mode}</span>{' '}
      {response.embedder ? `${response.embedder.provider} / ${response.embedder.model}` : 'no embedder (keyword search only)'} · {shown} result
      {shown === 1 ? '' : 's'} in {Math.round(response.tookMs)} ms
      {searching ? ' · searching…' : ''}
    </p>
  );
}

/** The engine's warnings about the last answer. */
export function SearchWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="warnings" aria-label="Search warnings">
      {warnings.map((w) => (
        <li key={w} className="warning">
          {w}
        </li>
      ))}
    </ul>
  );
}

/** Recent searches that found something; a click runs one again. */
export function RecentSearches({ history, onPick }: { history: readonly string[]; onPick: (query: string) => void }) {
  return (
    <nav className="search-history" aria-label="Recent searches">
      <h2>Recent searches</h2>
      <ul>
        {history.map((h) => (
          <li key={h}>
            <button type="button" className="link" onClick={() => onPick(h)}>
              {h}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
