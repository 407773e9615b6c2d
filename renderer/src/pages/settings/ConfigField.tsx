/**
 * One generated config field: the right input for its schema type, the default, whether the
 * file sets it, validation by the engine as you type (message next to the field), save and
 * reset-to-default.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useSettings } from '../../stores/settings';
import { fromText, getIn, toText, type FieldSpec } from './schema-fields';
import { FieldInput, fmt } from './FieldInput';

const VALIDATE_DEBOUNCE_MS = 150;


export function ConfigField({ field }: { field: FieldSpec }) {
  const view = useSettings((s) => s.view);
  const save = useSettings((s) => s.save);
  const validate = useSettings((s) => s.validate);
  const id = useId();
  const current = getIn(view?.config, field.keyPath);
  const raw = getIn(view?.raw, field.keyPath);
  const def = getIn(view?.defaults, field.keyPath);
  const isSet = raw !== undefined;
  const [text, setText] = useState(() => toText(field.kind, current));
  const [message, setMessage] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const seq = useRef(0);
  const dirty = text !== toText(field.kind, current);

  // When the engine's value changes (saved here, or cairn.json edited elsewhere), show it.
  useEffect(() => {
    setText(toText(field.kind, current));
    setMessage(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- compare by value, not identity
  }, [JSON.stringify(current), field.kind]);

  /** Validate `next` with the engine; only the newest answer is shown. */
  async function check(next: string): Promise<{ ok: boolean; value?: unknown }> {
    const mine = ++seq.current;
    const parsed = fromText(field.kind, next);
    if ('error' in parsed) {
      setMessage(parsed.error);
      return { ok: false };
    }
    // Unset always validates: the default applies.
    const msg = parsed.value === undefined ? undefined : await validate(field.keyPath, parsed.value).catch((e: Error) => e.message);
    if (mine === seq.current) setMessage(msg);
    return { ok: !msg, value: parsed.value };
  }

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  function onText(next: string) {
    setText(next);
    setSaved(false);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void check(next), VALIDATE_DEBOUNCE_MS);
  }

  async function commit(next: string) {
    clearTimeout(timer.current);
    const res = await check(next);
    if (!res.ok) return;
    setSaving(true);
    const err = await save(field.keyPath, res.value);
    setSaving(false);
    if (err) setMessage(err);
    else setSaved(true);
  }

  async function reset() {
    setSaving(true);
    const err = await save(field.keyPath, undefined);
    setSaving(false);
    setMessage(err);
    setSaved(!err);
  }

  const describedBy = `${id}-help ${id}-msg`;
  const input = <FieldInput field={field} id={id} describedBy={describedBy} text={text} current={current} def={def} invalid={Boolean(message)} onText={onText} commit={commit} />;
  return (
    <div className={`cfg-field${message ? ' cfg-invalid' : ''}`} data-key={field.keyPath}>
      <label htmlFor={id} className="cfg-label">
        <span className="cfg-name">{field.name}</span>
        <code className="cfg-path">{field.keyPath}</code>
      </label>
      <div className="cfg-input">
        {input}
        {dirty && field.kind !== 'boolean' && field.kind !== 'enum' && field.kind !== 'enum-list' && (
          <button type="button" onClick={() => void commit(text)} disabled={saving || !!message} aria-label={`Save ${field.keyPath}`}>
            Save
          </button>
        )}
        {isSet && (
          <button type="button" className="link" onClick={() => void reset()} disabled={saving} aria-label={`Reset ${field.keyPath} to default`}>
            Reset
          </button>
        )}
        {saved && !dirty && !message && <span className="cfg-saved" role="status">Saved</span>}
      </div>
      <div id={`${id}-help`} className="cfg-help muted">
        default {fmt(def)}
        {field.hint ? ` · ${field.hint}` : ''}
        {isSet ? ' · set in config' : ''}
      </div>
      <div id={`${id}-msg`} className="cfg-message error" role={message ? 'alert' : undefined}>
        {message ?? ''}
      </div>
    </div>
  );
}
