/**
 * The embedder set-up: which embedder the index uses and why (models.status: every candidate
 * of the auto order with what it needs), the models on disk, and "Download recommended model"
 * with a progress bar and Cancel (models.download + models.progress). A local GGUF file is
 * chosen by its path in "Memory search → modelPath" below.
 */
import { useEffect, useRef, useState } from 'react';
import type { ModelDownloadProgress, ModelsStatus } from '../../../../shared/types/models';
import { api } from '../../api';

function mb(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function EmbedderPanel() {
  const [status, setStatus] = useState<ModelsStatus | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [progress, setProgress] = useState<ModelDownloadProgress | undefined>();
  const [downloading, setDownloading] = useState(false);
  const [message, setMessage] = useState<string | undefined>();
  const ctl = useRef<AbortController | undefined>(undefined);
  const opId = useRef<string | undefined>(undefined);

  async function load() {
    try {
      setStatus(await api['models.status']({}));
      setError(undefined);
    } catch (err) {
      setError((err as Error).message);
    }
  }

  useEffect(() => {
    void load();
    const offs = [api.on('config.changed', () => void load())];
    try {
      offs.push(
        api.on('models.progress', (p) => {
          if (!p.opId || p.opId === opId.current) setProgress(p);
        }),
      );
    } catch (err) {
      // An engine without the models events: the download still works, without a bar.
      setError((err as Error).message);
    }
    return () => {
      offs.forEach((off) => off());
      ctl.current?.abort();
    };
  }, []);

  async function download() {
    const c = new AbortController();
    ctl.current = c;
    opId.current = globalThis.crypto.randomUUID();
    setDownloading(true);
    setProgress(undefined);
    setMessage(undefined);
    try {
      const res = await api['models.download']({}, { signal: c.signal, opId: opId.current });
      setMessage(`Downloaded to ${res.path}. Rebuild the index to embed with it.`);
    } catch (err) {
      const e = err as Error & { code?: string };
      setMessage(e.code === 'cancelled' ? 'Download cancelled; nothing was kept.' : `Download failed: ${e.message}`);
    } finally {
      setDownloading(false);
      void load();
    }
  }

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
              <button type="button" onClick={() => ctl.current?.abort()}>
                Cancel download
              </button>
            )}
            <span className="muted">
              {status.defaultModelPath ? `Recommended model present: ${status.defaultModelPath}` : `Recommended: ${status.defaultModelUri}`}
            </span>
          </div>
        </>
      )}
      {downloading && (
        <div className="sync-progress">
          <progress max={progress?.totalBytes || 1} value={progress?.downloadedBytes ?? 0} aria-label="Embedding model download progress" />
          <span className="muted">{progress ? `${mb(progress.downloadedBytes)} of ${progress.totalBytes ? mb(progress.totalBytes) : '?'}` : 'starting…'}</span>
        </div>
      )}
      {message && <p role="status">{message}</p>}
    </section>
  );
}
