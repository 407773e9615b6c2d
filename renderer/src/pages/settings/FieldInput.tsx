/**
 * The input of one generated config field, chosen by its schema type: a checkbox, a select,
 * a set of checkboxes, a text area (JSON, lists, prompts) or a text box (Enter saves, Escape
 * restores the engine's value).
 */
import { toText, type FieldSpec } from './schema-fields';

/** A value as the field shows it: `(none)`, `""` for an empty string, JSON otherwise. */
export function fmt(v: unknown): string {
  if (v === undefined) return '(none)';
  if (typeof v === 'string') return v === '' ? '""' : v;
  return JSON.stringify(v);
}

interface Props {
  field: FieldSpec;
  id: string;
  describedBy: string;
  text: string;
  current: unknown;
  def: unknown;
  invalid: boolean;
  onText: (next: string) => void;
  commit: (next: string) => Promise<void>;
}

export function FieldInput({ field, id, describedBy, text, current, def, invalid, onText, commit }: Props) {
  if (field.kind === 'boolean') {
    return (
      <input
        id={id}
        type="checkbox"
        checked={text === 'true'}
        aria-describedby={describedBy}
        onChange={(e) => void commit(String(e.target.checked))}
      />
    );
  }
  if (field.kind === 'enum') {
    return (
      <select id={id} value={text} aria-describedby={describedBy} onChange={(e) => void commit(e.target.value)}>
        {text === '' && <option value="">(default)</option>}
        {field.options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  }
  if (field.kind === 'enum-list') {
    const chosen = new Set(Array.isArray(current) ? current.map(String) : []);
    return (
      <span role="group" id={id} aria-describedby={describedBy} className="cfg-options">
        {field.options.map((o) => (
          <label key={o}>
            <input
              type="checkbox"
              checked={chosen.has(o)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.target.checked) next.add(o);
                else next.delete(o);
                void commit(JSON.stringify(field.options.filter((x) => next.has(x))));
              }}
            />{' '}
            {o}
          </label>
        ))}
      </span>
    );
  }
  // A secret (API key, headers carrying a token) is never shown in clear, even as JSON.
  if (!field.secret && (field.kind === 'json' || field.kind === 'string-list' || (field.kind === 'string' && /prompt|instructions/i.test(field.name)))) {
    return (
      <textarea
        id={id}
        rows={field.kind === 'string-list' ? 3 : 4}
        value={text}
        placeholder={field.kind === 'string-list' ? 'one per line' : fmt(def)}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(e) => onText(e.target.value)}
      />
    );
  }
  return (
    <input
      id={id}
      type={field.secret ? 'password' : 'text'}
      inputMode={field.kind === 'integer' ? 'numeric' : field.kind === 'number' ? 'decimal' : undefined}
      value={text}
      placeholder={def === undefined ? '' : fmt(def)}
      autoComplete="off"
      spellCheck={false}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(e) => onText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') void commit(text);
        if (e.key === 'Escape') onText(toText(field.kind, current));
      }}
    />
  );
}
