/**
 * Search filters: source, date range (since / before), decay and MMR on/off/config default,
 * and OpenClaw's entry annotations (trigger phrase, project, importance ≥ N; a chip on a
 * result sets them too).
 * Dates are typed as ISO YYYY-MM-DD like every date Cairn shows (a date picker follows the
 * locale, e.g. mm/dd/yyyy); a date is applied once it is complete and real.
 */
import { useEffect, useState } from 'react';
import { useSearch } from '../../stores/search';

function validIso(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function IsoDate({ label, value, onChange }: { label: string; value: string; onChange(v: string): void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const bad = text !== '' && !validIso(text);
  return (
    <label>
      {label}{' '}
      <input
        className="date-iso"
        inputMode="numeric"
        placeholder="YYYY-MM-DD"
        size={11}
        value={text}
        aria-invalid={bad || undefined}
        title={bad ? 'A date as YYYY-MM-DD, e.g. 2026-11-30' : undefined}
        onChange={(e) => {
          const v = e.target.value.trim();
          setText(v);
          if (v === '' || validIso(v)) onChange(v);
        }}
      />
    </label>
  );
}

function TriState({ label, value, onChange }: { label: string; value: boolean | undefined; onChange(v: boolean | undefined): void }) {
  return (
    <label>
      {label}{' '}
      <select
        value={value === undefined ? 'config' : value ? 'on' : 'off'}
        onChange={(e) => onChange(e.target.value === 'config' ? undefined : e.target.value === 'on')}
      >
        <option value="config">as configured</option>
        <option value="on">on</option>
        <option value="off">off</option>
      </select>
    </label>
  );
}

export function SearchFilters() {
  const f = useSearch((s) => s.filters);
  const setFilters = useSearch((s) => s.setFilters);
  return (
    <div className="search-filters" role="group" aria-label="Search filters">
      <label>
        Source{' '}
        <select value={f.source} onChange={(e) => setFilters({ source: e.target.value as typeof f.source })}>
          <option value="all">all</option>
          <option value="memory">memory</option>
          <option value="sessions">sessions</option>
        </select>
      </label>
      <IsoDate label="Since" value={f.since} onChange={(since) => setFilters({ since })} />
      <IsoDate label="Before" value={f.before} onChange={(before) => setFilters({ before })} />
      <TriState label="Decay" value={f.decay} onChange={(decay) => setFilters({ decay })} />
      <TriState label="MMR" value={f.mmr} onChange={(mmr) => setFilters({ mmr })} />
      <label>
        Trigger{' '}
        <input size={14} value={f.trigger} placeholder="any" data-testid="filter-trigger" onChange={(e) => setFilters({ trigger: e.target.value })} />
      </label>
      <label>
        Project{' '}
        <input size={14} value={f.project} placeholder="any" data-testid="filter-project" onChange={(e) => setFilters({ project: e.target.value })} />
      </label>
      <label>
        Importance ≥{' '}
        <select value={f.importanceMin ?? ''} data-testid="filter-importance" onChange={(e) => setFilters({ importanceMin: e.target.value ? Number(e.target.value) : undefined })}>
          <option value="">any</option>
          {[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
