/**
 * Settings: the state dir and read-only switch, the index, the embedder and chat model
 * set-up, then every config key as a form generated from the engine's JSON Schema, grouped by
 * section, with a filter box.
 */
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../api';
import { useSettings } from '../../stores/settings';
import { ConfigField } from './ConfigField';
import { sectionsOf, type JsonSchema } from './schema-fields';
import { StatePanel } from './StatePanel';
import { IndexPanel } from './IndexPanel';
import { ModelPanel } from './ModelPanel';
import { EmbedderPanel } from './EmbedderPanel';
import './settings.css';

export function SettingsPage() {
  const view = useSettings((s) => s.view);
  const error = useSettings((s) => s.error);
  const load = useSettings((s) => s.load);
  const [filter, setFilter] = useState('');

  useEffect(() => {
    void load();
    return api.on('config.changed', () => void load());
  }, [load]);

  const schema = view?.schema;
  const sections = useMemo(() => (schema ? sectionsOf(schema as JsonSchema) : []), [schema]);
  const q = filter.trim().toLowerCase();
  const shown = sections
    .map((s) => ({ ...s, fields: q ? s.fields.filter((f) => f.keyPath.toLowerCase().includes(q)) : s.fields }))
    .filter((s) => s.fields.length > 0);

  return (
    <section className="page settings-page" aria-labelledby="settings-title">
      <header className="page-header">
        <h1 id="settings-title">Settings</h1>
      </header>
      {error && (
        <p role="alert" className="error">
          Could not read the config: {error}
        </p>
      )}
      <StatePanel />
      <IndexPanel />
      <EmbedderPanel />
      <ModelPanel />
      <h2>Configuration</h2>
      {view && (
        <p className="muted">
          Saved to <code>cairn.json</code> in the state directory{view.files.length ? ` (read from ${view.files.join(', ')})` : ''}. Each
          value is checked by the engine as you type; empty means the default.
        </p>
      )}
      <div className="settings-layout">
        <nav className="settings-nav" aria-label="Settings sections">
          <input
            type="search"
            placeholder="Filter settings"
            aria-label="Filter settings"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <ul>
            {shown.map((s) => (
              <li key={s.id}>
                <a href={`#/settings`} onClick={(e) => {
                  e.preventDefault();
                  document.getElementById(`cfg-${s.id}`)?.scrollIntoView({ block: 'start' });
                }}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-sections">
          {!view && !error && <p className="muted">Loading the config…</p>}
          {view && shown.length === 0 && <p className="muted">No setting matches “{filter}”.</p>}
          {shown.map((s) => (
            <fieldset key={s.id} id={`cfg-${s.id}`} className="cfg-section">
              <legend>{s.title}</legend>
              {s.fields.map((f) => (
                <ConfigField key={f.keyPath} field={f} />
              ))}
            </fieldset>
          ))}
        </div>
      </div>
    </section>
  );
}
