/** The per-stage scores of one result as small bars: vector, text, merged, decay, MMR rank. */
import type { SearchExplain } from '../../../../shared/types/search';

function Bar({ label, value, note }: { label: string; value: number | null; note?: string }) {
  const pct = value === null ? 0 : Math.max(0, Math.min(1, value)) * 100;
  return (
    <div className="sb-row">
      <span className="sb-label">{label}</span>
      <span className="sb-track" role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={1} aria-valuenow={value ?? 0}>
        <span className="sb-fill" style={{ width: `${pct}%` }} />
      </span>
      <span className="sb-value">{value === null ? '—' : value.toFixed(3)}</span>
      {note && <span className="sb-note muted">{note}</span>}
    </div>
  );
}

export function ScoreBreakdown({ explain, score, count }: { explain: SearchExplain; score: number; count: number }) {
  return (
    <div className="score-breakdown" data-testid="score-breakdown">
      <Bar label="vector" value={explain.vector} note={explain.vector === null ? 'not a vector candidate' : '1 − cosine distance'} />
      <Bar label="text" value={explain.text} note={explain.text === null ? 'no keyword match' : 'BM25 mapped to 0..1'} />
      <Bar label="merged" value={explain.merged} note="weighted merge; minScore judges this" />
      <Bar label="decay" value={explain.decay} note={explain.decay === 1 ? 'no decay (evergreen or decay off)' : 'temporal decay multiplier'} />
      <Bar
        label="MMR rank"
        value={explain.mmrRank === null ? null : 1 - (explain.mmrRank - 1) / Math.max(count, 1)}
        note={explain.mmrRank === null ? 'MMR off' : `picked #${explain.mmrRank}`}
      />
      <Bar label="final" value={score} note="merged × decay" />
    </div>
  );
}
