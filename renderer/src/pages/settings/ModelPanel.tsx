/**
 * The chat model set-up: what `cairn.llm` describes (llm.status), a test-connection button
 * (llm.test: one tiny request), and for a local model the download of `cairn.llm.modelUri`
 * with a progress bar and Cancel (llm.download + llm.downloadProgress). The keys themselves
 * are edited in the generated "Model" section below.
 */
import { useEffect, useState } from 'react';
import type { LlmDownloadProgress, LlmStatus, LlmTestResult } from '../../../../shared/types/llm';
import { api } from '../../api';
import { DownloadProgress, mb } from './DownloadProgress';
import { useModelDownload, type ModelDownloadSource } from './useModelDownload';
import { RecommendedModels } from '../../components/RecommendedModels';
import { num } from '../sessions/format';

const llmSource: ModelDownloadSource<LlmStatus, LlmDownloadProgress> = {
  loadStatus: () => api['llm.status']({}),
  onProgress: (listener) => api.on('llm.downloadProgress', listener),
  download: (options) => api['llm.download']({}, options),
  doneMessage: (path) => `Downloaded to ${path}`,
};

export function ModelPanel() {
  const { status, error, progress, downloading, message: dlMessage, download, cancel } = useModelDownload(llmSource);
  const [test, setTest] = useState<LlmTestResult | undefined>();
  const [testing, setTesting] = useState(false);

  // A changed config may name another model: the last test result no longer applies.
  useEffect(() => api.on('config.changed', () => setTest(undefined)), []);

  async function runTest() {
    setTesting(true);
    setTest(undefined);
    try {
      setTest(await api['llm.test']({}));
    } catch (err) {
      setTest({ ok: false, message: (err as Error).message, latencyMs: 0, provider: (status?.provider ?? 'none') as LlmTestResult['provider'] });
    } finally {
      setTesting(false);
    }
  }

  const file = status?.modelFile;
  return (
    <section className="panel" aria-labelledby="model-title">
      <h2 id="model-title">Chat model</h2>
      {error && (
        <p role="alert" className="error">
          Could not read the model status: {error}
        </p>
      )}
      {status && (
        <dl className="facts" data-testid="llm-status">
          <dt>Provider</dt>
          <dd>{status.provider === 'none' ? 'none: no model configured (compaction falls back to the deterministic extract)' : status.provider}</dd>
          {status.model && (
            <>
              <dt>Model</dt>
              <dd>{status.model}</dd>
            </>
          )}
          {status.baseUrl && (
            <>
              <dt>Endpoint</dt>
              <dd>{status.baseUrl}</dd>
            </>
          )}
          {status.keySource && status.provider !== 'llama' && status.provider !== 'none' && (
            <>
              <dt>API key</dt>
              <dd>{status.keySource === 'env' ? `from ${status.keyEnv ?? 'the environment'}` : status.keySource === 'config' ? 'from cairn.json' : `none (set cairn.llm.apiKey or ${status.keyEnv ?? 'the env var'})`}</dd>
            </>
          )}
          {status.contextWindow !== undefined && (
            <>
              <dt>Context window</dt>
              <dd>{num(status.contextWindow)} tokens</dd>
            </>
          )}
          {file && (
            <>
              <dt>Model file</dt>
              <dd>
                {file.path ?? file.uri ?? '(none)'} — {file.exists ? `present${file.sizeBytes ? `, ${mb(file.sizeBytes)}` : ''}` : 'not downloaded'}
              </dd>
            </>
          )}
        </dl>
      )}
      {status?.problem && <p className="warning">{status.problem}</p>}
      <p className="muted">
        Choose the provider below in “Model”: <code>openai</code> (any OpenAI-compatible endpoint: set baseUrl), <code>anthropic</code>, or{' '}
        <code>llama</code> with a local GGUF file path (modelPath) or an <code>hf:</code> URI to download (modelUri).
      </p>
      <div className="row">
        <button type="button" onClick={() => void runTest()} disabled={testing || !status || status.provider === 'none'}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        {status?.provider === 'llama' && file?.uri && !file.exists && (
          <button type="button" onClick={() => void download()} disabled={downloading}>
            Download model
          </button>
        )}
        {downloading && (
          <button type="button" onClick={cancel}>
            Cancel download
          </button>
        )}
      </div>
      {downloading && <DownloadProgress progress={progress} label="Model download progress" />}
      {dlMessage && <p role="status">{dlMessage}</p>}
      {test && (
        <p role="status" className={test.ok ? 'ok-text' : 'error'} data-testid="llm-test-result">
          {test.ok ? `Connected in ${test.latencyMs} ms: ` : 'Connection failed: '}
          {test.message}
        </p>
      )}
      <RecommendedModels />
    </section>
  );
}
