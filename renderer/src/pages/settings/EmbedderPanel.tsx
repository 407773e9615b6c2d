/**
 * The embedder set-up: which embedder the index uses and why (models.status: every candidate
 * of the auto order with what it needs), the models on disk, and "Download recommended model"
 * with a progress bar and Cancel (models.download + models.progress). A local GGUF file is
 * chosen by its path in "Memory search → modelPath" below.
 */
import type { ModelDownloadProgress, ModelsStatus } from '../../../../shared/types/models';
import { api } from '../../api';
import { DownloadProgress, mb } from './DownloadProgress';
import { useModelDownload, type ModelDownloadSource } from './useModelDownload';

const embedderSource: ModelDownloadSource<ModelsStatus, ModelDownloadProgress> = {
  loadStatus: () => api['models.status']({}),
  onProgress: (listener) => api.on('models.progress', listener),
  download: (options) => api['models.download']({}, options),
  doneMessage: (path) => `Downloaded to ${path}. Rebuild the index to embed with it.`,
};

export function EmbedderPanel() {
  const { status, error, progress, downloading, message, download, cancel } = useModelDownload(embedderSource);

  return (
    <section className="panel" aria-labelledby="embedder-title">
      <h2 id="embedder-title">Embedder</h2>
      {error && (
        <p role="alert" className="error">
          Could not read the embedder status: {error}
        </p>
      )}
      {status && (
        <>
          <p data-testid="embedder-selected">
            Provider setting <code>{status.configuredProvider}</code> →{' '}
            {status.selected ? (
              <strong>
                {status.selected.provider} ({status.selected.detail})
              </strong>
            ) : (
              <strong>no embedder: keyword (FTS-only) search</strong>
            )}
          </p>
          <ul className="cand-list" aria-label="Embedder candidates">
            {status.candidates.map((c) => (
              <li key={c.provider} className={c.available ? 'cand-ok' : 'cand-no'}>
                <span className="badge">{c.available ? 'ready' : 'missing'}</span> <strong>{c.provider}</strong> — {c.detail}
              </li>
            ))}
          </ul>
          <p className="muted">
            Models in <code>{status.modelsDir}</code>:{' '}
            {status.files.length ? status.files.map((f) => `${f.name} (${mb(f.bytes)})`).join(', ') : 'none'}
          </p>
          <div className="row">
            {!status.defaultModelPath && (
              <button type="button" onClick={() => void download()} disabled={downloading}>
                Download recommended model
              </button>
            )}
            {downloading && (
              <button type="button" onClick={cancel}>
                Cancel download
              </button>
            )}
            <span className="muted">
              {status.defaultModelPath ? `Recommended model present: ${status.defaultModelPath}` : `Recommended: ${status.defaultModelUri}`}
            </span>
          </div>
        </>
      )}
      {downloading && <DownloadProgress progress={progress} label="Embedding model download progress" />}
      {message && <p role="status">{message}</p>}
    </section>
  );
}
