/**
 * The recommended local chat models to download (Chat's no-model panel, Settings → Model):
 * each with its download size, the memory it needs, its licence and what it is good for; one
 * click downloads it into Cairn's models dir with a progress bar and Cancel (an interrupted
 * download resumes on the next click), then makes it the chat model. Offline, the engine
 * answers at once and the message says so.
 */
import { useEffect, useRef, useState } from 'react';
import type { LlmDownloadProgress, LlmStatus } from '../../../shared/types/llm';
import type { RecommendedModel, RecommendedModels as Models } from '../../../shared/types/llm-recommended';
import { api } from '../api';
import { DownloadProgress } from '../pages/settings/DownloadProgress';

function gb(bytes: number): string {
  return `${(bytes / 1e9).toFixed(1)} GB`;
}

export function RecommendedModels({ onSelected, headingLevel = 3 }: { onSelected?: (status: LlmStatus) => void; headingLevel?: 2 | 3 }) {
  const [list, setList] = useState<Models | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState<string | undefined>();
  const [progress, setProgress] = useState<LlmDownloadProgress | undefined>();
  const [message, setMessage] = useState<{ text: string; kind: 'ok' | 'error' | 'info' } | undefined>();
  const ctl = useRef<AbortController | undefined>(undefined);
  const opId = useRef<string | undefined>(undefined);

  const load = () => api['llm.recommended']({}).then(setList, (err: Error) => setError(err.message));
  useEffect(() => {
    void load();
    const off = api.on('llm.downloadProgress', (p) => {
      if (p.opId && p.opId === opId.current) setProgress(p);
    });
    return () => {
      off();
      ctl.current?.abort();
    };
  }, []);

  async function get(m: RecommendedModel) {
    const c = new AbortController();
    ctl.current = c;
    opId.current = globalThis.crypto.randomUUID();
    setBusy(m.id);
    setProgress(undefined);
    setMessage(undefined);
    try {
      const status = await api['llm.downloadRecommended']({ id: m.id }, { signal: c.signal, opId: opId.current });
      setMessage({ text: `${m.name} is downloaded and is now the chat model.`, kind: 'ok' });
      onSelected?.(status);
    } catch (err) {
      const e = err as Error & { code?: string };
      if (e.code === 'cancelled') setMessage({ text: 'Download stopped. Download again to go on from where it stopped.', kind: 'info' });
      else setMessage({ text: `Download failed: ${e.message}`, kind: 'error' });
    } finally {
      setBusy(undefined);
      void load();
    }
  }

  const H = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="recommended" data-testid="recommended-models">
      <H>Download a model to run on this computer</H>
      <p className="muted">Free models that run offline once downloaded. Pick one that fits this computer's memory.</p>
      {error && <p className="error">Could not list the models: {error}</p>}
      {list && (
        <ul className="recommended-list" aria-label="Recommended models">
          {list.models.map((m) => (
            <li key={m.id} className="recommended-item" data-model={m.id}>
              <div className="recommended-head">
                <strong>{m.name}</strong>
                <span className="muted">
                  {gb(m.sizeBytes)} download · needs about {gb(m.memoryBytes)} of memory ·{' '}
                  <a href={m.licenseUrl} target="_blank" rel="noreferrer">
                    {m.license}
                  </a>
                </span>
              </div>
              <p className="recommended-good">{m.goodFor}</p>
              {busy === m.id ? (
                <div className="row">
                  <DownloadProgress progress={progress} label={`Downloading ${m.name}`} />
                  <button type="button" onClick={() => ctl.current?.abort()}>
                    Cancel
                  </button>
                </div>
              ) : (
                <button type="button" disabled={busy !== undefined} onClick={() => void get(m)} aria-label={m.downloadedPath ? `Use this model: ${m.name}` : `Download and use ${m.name}`}>
                  {m.downloadedPath ? 'Use this model' : 'Download and use'}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {list && (
        <p className="muted small">
          Saved in <code className="path" title={list.modelsDir}>{list.modelsDir}</code>
        </p>
      )}
      {message && (
        <p role={message.kind === 'error' ? 'alert' : 'status'} className={message.kind === 'error' ? 'error' : message.kind === 'ok' ? 'ok' : 'muted'} data-testid="recommended-message">
          {message.text}
        </p>
      )}
    </div>
  );
}
