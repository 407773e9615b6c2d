/**
 * One line diff of two texts (jsdiff `diffLines`), as every memory view shows one: removed
 * lines `−`, added `+`, each with words a screen reader says, and the unchanged lines shown
 * whole, left out, or folded to a few lines of context around each change.
 */
import { diffLines, type Change } from 'diff';
import { scrollRegion } from './scroll-region';

/** Lines kept on each side of a change when unchanged runs are folded. */
const CONTEXT = 2;

function lines(c: Change): string[] {
  return c.value.replace(/\n$/, '').split('\n');
}

/** An unchanged run folded to CONTEXT lines next to each change, the rest counted. */
function folded(ls: string[], first: boolean, last: boolean): string[] {
  if (ls.length <= CONTEXT * 2 + 1) return ls;
  const head = first ? 0 : CONTEXT;
  const tail = last ? 0 : CONTEXT;
  return [...ls.slice(0, head), `… ${ls.length - head - tail} unchanged lines …`, ...ls.slice(ls.length - tail)];
}

export interface LineDiffProps {
  before: string;
  after: string;
  testId: string;
  /** The group's accessible name (says which side is − and which is +). */
  label: string;
  /** What a screen reader says before a removed and an added line (the label alone when absent). */
  said?: { removed: string; added: string };
  /** Unchanged lines: all shown, none, or folded around the changes. */
  unchanged: 'all' | 'none' | 'fold';
  /** Shown instead when the two texts have the same lines. */
  same: string;
}

/** The diff of `before` → `after`. */
export function LineDiff({ before, after, testId, label, said, unchanged, same }: LineDiffProps) {
  const changes = diffLines(before, after);
  if (!changes.some((c) => c.added || c.removed)) return <p className="muted">{same}</p>;
  return (
    <div className="conflict-diff" data-testid={testId} {...scrollRegion(label)}>
      {changes.flatMap((c, i) => {
        if (c.added || c.removed) {
          return lines(c).map((l, j) => (
            <div key={`${i}-${j}`} className={c.added ? 'diff-add' : 'diff-del'}>
              <span aria-hidden="true">{c.added ? '+ ' : '− '}</span>
              {said && <span className="sr-only">{c.added ? said.added : said.removed}</span>}
              {l || ' '}
            </div>
          ));
        }
        if (unchanged === 'none') return [];
        const ls = unchanged === 'fold' ? folded(lines(c), i === 0, i === changes.length - 1) : lines(c);
        return ls.map((l, j) => (
          <div key={`${i}-${j}`} className="diff-same">
            {'  '}
            {l || ' '}
          </div>
        ));
      })}
    </div>
  );
}
