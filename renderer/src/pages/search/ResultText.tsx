/**
 * What a search hit shows to read (issue 37): the lines that answer — each with its line
 * number in the cited file, the query's terms marked, context lines (a heading, the question a
 * reply answers) dimmed, "…" where lines are left out — and the whole passage one click away.
 * A hit the engine picked no lines for (`lines` absent) shows its snippet, as before. Props
 * only (the passage is read through `readPassage`), so it renders without the engine.
 */
import { useId, useState, type ReactNode } from 'react';
import type { PickedLine, SearchResult } from '../../../../shared/types/search';
import { highlight } from './highlight';

/** A picked line, or the "…" standing for the lines left out before the next one. */
export type PickedRow = { kind: 'line'; line: PickedLine } | { kind: 'gap'; before: number };

/** The picked lines in line order, with a gap row wherever line numbers jump. */
export function pickedRows(lines: readonly PickedLine[]): PickedRow[] {
  const rows: PickedRow[] = [];
  let prev: number | undefined;
  for (const line of [...lines].sort((a, b) => a.line - b.line)) {
    if (prev !== undefined && line.line > prev + 1) rows.push({ kind: 'gap', before: line.line });
    rows.push({ kind: 'line', line });
    prev = line.line;
  }
  return rows;
}

export function ResultText({ r, terms, readPassage }: { r: SearchResult; terms: string[]; readPassage: () => Promise<string> }) {
  const [whole, setWhole] = useState(false);
  const [passage, setPassage] = useState<string | undefined>(undefined);
  const id = useId();
  const lines = r.lines ?? [];
  if (lines.length === 0) return <pre className="result-snippet">{highlight(r.snippet, terms)}</pre>;
  const toggle = () => {
    const next = !whole;
    setWhole(next);
    // The cited chunk as a reader would open it; today's snippet when it cannot be read.
    if (next && passage === undefined) readPassage().then(setPassage, () => setPassage(r.snippet));
  };
  let shown: ReactNode;
  if (whole) {
    shown = (
      <pre id={id} className="result-snippet result-whole" data-testid="whole-passage" aria-busy={passage === undefined}>
        {passage === undefined ? 'Reading…' : highlight(passage, terms)}
      </pre>
    );
  } else {
    shown = (
      <ol id={id} className="picked-lines" aria-label={`Lines that answer, from ${r.citation}`} data-testid="picked-lines">
        {pickedRows(lines).map((row) =>
          row.kind === 'gap' ? (
            <li key={`gap-${row.before}`} className="picked-gap" aria-label="lines left out">
              …
            </li>
          ) : (
            <li key={row.line.line} className={`picked-line picked-${row.line.role}`} data-line={row.line.line}>
              <span className="picked-ln">L{row.line.line}</span>
              <span className="picked-text">{highlight(row.line.text, terms)}</span>
            </li>
          ),
        )}
      </ol>
    );
  }
  return (
    <div className="result-text">
      {shown}
      <button type="button" className="link passage-toggle" aria-expanded={whole} aria-controls={id} onClick={toggle}>
        {whole ? 'Show the lines that answer' : 'Show whole passage'}
      </button>
    </div>
  );
}
