/**
 * The memory index at a glance: files and chunks, last sync, mode and embedder, vector
 * search (vec0 or the fallback scan), warnings; a progress bar while a sync runs and the
 * "Rebuild index" action. Shown in Settings and on the Status page.
 */
import { canWrite } from '../door';
import { useEffect } from 'react';
import { useSearch, wireIndexEvents } from '../stores/search';
import { when } from '../pages/sessions/format';

function lastSync(iso: string | null): string {
  return iso ? when(iso) : 'never';
}

export function IndexStatusView({ actions = true }: { actions?: boolean }) {
  const index = useSearch((s) => s.index);
  const error = useSearch((s) => s.indexError);
  const progress = useSearch((s) => s.progress);
  const syncing = useSearch((s) => s.syncing);
  const loadIndex = useSearch((s) => s.loadIndex);
  const sync = useSearch((s) => s.sync);
  const cancelSync = useSearch((s) => s.cancelSync);

  useEffect(() => {
    wireIndexEvents();
    void loadIndex();
  }, [loadIndex]);

  const total = progress ? Math.max(progress.chunksTotal || progress.filesTotal, 1) : 1;
  const done = progress ? (progress.chunksTotal ? progress.chunksDone : progress.filesDone) : 0;

  return (
    <div className="index-status" data-testid="index-status">
      {error && (
        <p role="alert" className="error">
          Index: {error}
        </p>
      )}
      {!index && !error && <p className="muted">Reading the index…</p>}
      {index && (
        <dl className="facts">
          <dt>Index</dt>
          <dd data-testid="index-counts">
            {index.exists ? `${index.files} files, ${index.chunks} chunks` : 'not built yet'}
            {index.dirty ? ' (files changed since the last sync)' : ''}
          </dd>
          <dt>Last sync</dt>
          <dd data-testid="index-last-sync">{lastSync(index.lastSync)}</dd>
          <dt>Search mode</dt>
          <dd>
            {index.mode}
            {index.embedder ? ` · ${index.embedder.provider} / ${index.embedder.model}` : ' · no embedder'}
          </dd>
          <dt>Vector search</dt>
          <dd>{index.vector === 'vec0' ? 'sqlite-vec (vec0 KNN)' : index.vector === 'fallback' ? 'in-process cosine scan (sqlite-vec did not load)' : 'off'}</dd>
          <dt>Sources</dt>
          <dd>{index.sources.join(', ')}</dd>
          <dt>File</dt>
          <dd>{index.indexFile}</dd>
        </dl>
      )}
      {index && index.warnings.length > 0 && (
        <ul className="warnings" aria-label="Index warnings">
          {index.warnings.map((w) => (
            <li key={w} className="warning">
              {w}
            </li>
          ))}
        </ul>
      )}
      {(syncing || progress) && (
        <div className="sync-progress">
          <progress max={total} value={done} aria-label="Index sync progress" />
          <span className="muted">
            {progress ? `${progress.phase}: ${progress.filesDone}/${progress.filesTotal} files, ${progress.chunksDone}/${progress.chunksTotal} chunks` : 'starting…'}
          </span>
        </div>
      )}
      {actions && canWrite && (
        <div className="row">
          <button type="button" onClick={() => void sync(false)} disabled={syncing}>
            Sync now
          </button>
          <button type="button" onClick={() => void sync(true)} disabled={syncing}>
            Rebuild index
          </button>
          {syncing && (
            <button type="button" onClick={cancelSync}>
              Cancel
            </button>
          )}
        </div>
      )}
    </div>
  );
}
