/**
 * The Chat page without a model: instead of a dead end, the ways out in
 * place — use a GGUF chat model found on this computer (the models dir, the demo model when
 * fetched) with one click, give a GGUF file path, or set up a provider in Settings. Says once
 * what is missing; a misconfiguration's own problem is shown only when it adds something.
 */
import { useEffect, useState } from 'react';
import type { LlmStatus } from '../../../../shared/types/llm';
import type { LocalChatModels } from '../../../../shared/types/llm-local';
import { api } from '../../api';
import { useApp } from '../../stores/app';

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

/** Open Settings at the Chat model panel (it renders after the page switch). */
function openModelSettings(go: (p: 'settings') => void): void {
  go('settings');
  let tries = 0;
  const find = () => {
    const el = document.getElementById('model-title');
    if (el) {
      el.scrollIntoView({ block: 'start' });
      return;
    }
    if (++tries < 120) requestAnimationFrame(find);
  };
  requestAnimationFrame(find);
}

export function NoModel({ llm, onChosen }: { llm: LlmStatus; onChosen: (status: LlmStatus) => void }) {
  const go = useApp((s) => s.go);
  const [local, setLocal] = useState<LocalChatModels | undefined>();
  const [listError, setListError] = useState<string | undefined>();
  const [file, setFile] = useState('');
  const [busy, setBusy] = useState(false);
  const [useError, setUseError] = useState<string | undefined>();

  useEffect(() => {
    api['llm.localModels']({}).then(setLocal, (err: Error) => setListError(err.message));
  }, []);

  async function use(path: string) {
    setBusy(true);
    setUseError(undefined);
    try {
      onChosen(await api['llm.useLocal']({ path }));
    } catch (err) {
      setUseError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  // With provider "none" the engine's problem repeats the headline; other problems (a missing file, no key) say what is wrong.
  const problem = llm.provider !== 'none' ? llm.problem : undefined;
  return (
    <section className="chat-nomodel" aria-labelledby="nomodel-title" data-testid="chat-no-model">
      <h2 id="nomodel-title">No model configured</h2>
      <p>
        Chat needs a chat model. {problem ? <span data-testid="chat-model-problem">{problem}. </span> : null}
        <span className="muted">/compact works without one: it writes the deterministic extract.</span>
      </p>
      <div className="nomodel-options">
        <div>
          <h3>Use a model on this computer</h3>
          {listError && <p className="error">Could not look for models: {listError}</p>}
          {local && local.models.length === 0 && (
            <p className="muted">
              No GGUF chat model found in <code>{local.modelsDir}</code>.
            </p>
          )}
          {local && local.models.length > 0 && (
            <ul className="nomodel-list" aria-label="Chat models on this computer">
              {local.models.map((m) => (
                <li key={m.path}>
                  <button type="button" onClick={() => void use(m.path)} disabled={busy} aria-label={`Use ${m.name}`}>
                    Use {m.name}
                  </button>{' '}
                  <span className="muted">
                    {m.source === 'demo' ? 'demo model (small, for trying Cairn)' : 'in the models dir'} · {m.architecture} · {mb(m.bytes)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <form
            className="row"
            onSubmit={(e) => {
              e.preventDefault();
              if (file.trim()) void use(file.trim());
            }}
          >
            <label>
              GGUF file{' '}
              <input type="text" aria-label="GGUF chat model file" value={file} onChange={(e) => setFile(e.target.value)} placeholder="/path/to/model.gguf" size={40} />
            </label>
            <button type="submit" disabled={busy || !file.trim()}>
              Use this file
            </button>
          </form>
        </div>
        <div>
          <h3>Or a provider</h3>
          <p className="muted">An OpenAI-compatible endpoint (OpenAI, Ollama, llama.cpp server, LM Studio) or Anthropic.</p>
          <button type="button" onClick={() => openModelSettings(go)}>
            Set up a provider in Settings
          </button>
        </div>
      </div>
      {useError && (
        <p role="alert" className="error" data-testid="chat-use-error">
          {useError}
        </p>
      )}
    </section>
  );
}
