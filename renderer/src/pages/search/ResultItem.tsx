/**
 * One search hit: citation link (opens the memory file at those lines, or the session),
 * source badge, date, score, the lines that answer (or the snippet) with the query's terms
 * marked (ResultText.tsx), and an expandable score breakdown.
 */
import { useState } from 'react';
import type { SearchResult } from '../../../../shared/types/search';
import { memoryHref } from '../../stores/memory';
import { readMemory } from '../../stores/memory-read';
import { ResultText } from './ResultText';
import { ScoreBreakdown } from './ScoreBreakdown';
import { CopyButton } from '../../components/CopyButton';
import { AnnotationChips } from '../../components/AnnotationChips';
import { ProvenanceLabel } from '../../components/ProvenanceLabel';
import { useSearch } from '../../stores/search';

/** Where a citation opens: the memory browser at the lines, or the session's timeline at the cited entry. */
export function resultHref(r: SearchResult): string {
  if (r.source === 'sessions') {
    const id = (r.path.split('/').pop() ?? r.path).replace(/\.jsonl$/, '');
    return `#/sessions/${encodeURIComponent(id)}/timeline?line=${r.startLine}`;
  }
  return memoryHref(r.path, { from: r.startLine, to: r.endLine });
}

/**
 * The whole passage a hit cites: a memory note's cited lines as the file has them now; a
 * session's (or a note that cannot be read) the snippet the engine sent.
 */
async function readPassage(r: SearchResult): Promise<string> {
  if (r.source !== 'memory') return r.snippet;
  const doc = await readMemory(r.path);
  return doc.text.split('\n').slice(r.startLine - 1, r.endLine).join('\n');
}

/** A daily note's date comes from its file name (SPEC §7.4). */
function dateOf(path: string): string | undefined {
  return /(\d{4}-\d{2}-\d{2})\.md$/.exec(path)?.[1];
}

export function ResultItem({
  r,
  similar = [],
  terms,
  count,
  active,
  id,
}: {
  r: SearchResult;
  /** Near-identical hits folded under this one (group.ts). */
  similar?: SearchResult[];
  terms: string[];
  count: number;
  active: boolean;
  id: string;
}) {
  const [open, setOpen] = useState(false);
  const [showSimilar, setShowSimilar] = useState(false);
  const date = dateOf(r.path);
  const setFilters = useSearch((s) => s.setFilters);
  return (
    <li id={id} className={`result${active ? ' active' : ''}`} data-testid="search-result" aria-current={active ? 'true' : undefined}>
      <div className="result-head">
        <a className="result-cite" href={resultHref(r)}>
          {r.citation}
        </a>
        <CopyButton text={r.citation} label={`Copy citation ${r.citation}`} />
        <span className={`src-badge src-${r.source}`}>{r.source === 'sessions' ? 'session' : 'memory'}</span>
        {date && <span className="muted">{date}</span>}
        <span className="result-score" title="final score">
          {r.score.toFixed(3)}
        </span>
        {r.explain && (
          <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)} aria-label={`${open ? 'Hide scores' : 'Scores'} (Score breakdown for ${r.citation})`}>
            {open ? 'Hide scores' : 'Scores'}
          </button>
        )}
      </div>
      {(r.annotations || r.provenance) && (
        <span className="annotation-chips">
          {r.provenance && <ProvenanceLabel p={r.provenance} />}
          {r.annotations && <AnnotationChips a={r.annotations} onFilter={(f) => setFilters(f)} />}
        </span>
      )}
      <ResultText r={r} terms={terms} readPassage={() => readPassage(r)} />
      {similar.length > 0 && (
        <div className="result-similar">
          <button type="button" className="link" aria-expanded={showSimilar} onClick={() => setShowSimilar(!showSimilar)} data-testid="similar-toggle">
            {showSimilar ? 'Hide' : 'Show'} {similar.length} near-identical {similar.length === 1 ? 'hit' : 'hits'}
          </button>
          {showSimilar && (
            <ul data-testid="similar-hits">
              {similar.map((s) => (
                <li key={`${s.path}:${s.startLine}`}>
                  <a className="result-cite" href={resultHref(s)}>
                    {s.citation}
                  </a>{' '}
                  <span className="result-score">{s.score.toFixed(3)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {open && r.explain && <ScoreBreakdown explain={r.explain} score={r.score} count={count} />}
    </li>
  );
}
