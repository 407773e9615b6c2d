/** Search filters: source, date range (since / before), decay and MMR on/off/config default. */
import { useSearch } from '../../stores/search';

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
      <label>
        Since <input type="date" value={f.since} onChange={(e) => setFilters({ since: e.target.value })} />
      </label>
      <label>
        Before <input type="date" value={f.before} onChange={(e) => setFilters({ before: e.target.value })} />
      </label>
      <TriState label="Decay" value={f.decay} onChange={(decay) => setFilters({ decay })} />
      <TriState label="MMR" value={f.mmr} onChange={(mmr) => setFilters({ mmr })} />
    </div>
  );
}
