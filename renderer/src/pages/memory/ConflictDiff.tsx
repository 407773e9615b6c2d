/**
 * What differs between the file on disk and the unsaved edit, when the file changed on disk
 * while it was being edited: a line diff (jsdiff `diffLines`), unchanged runs
 * folded to their first and last lines, so the user can decide to reload or overwrite.
 */
import { useEffect, useState } from 'react';
import { diffLines, type Change } from 'diff';
import { api } from '../../api';

const CONTEXT = 2;

function lines(c: Change): string[] {
  return c.value.replace(/\n$/, '').split('\n');
}

export function ConflictDiff({ path, draft }: { path: string; draft: string }) {
  const [disk, setDisk] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    api['memory.read']({ path }).then(
      (d) => live && setDisk(d.text),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [path]);
  if (error) return <p className="muted">The version on disk could not be read: {error}</p>;
  if (disk === undefined) return <p className="muted">Comparing with the version on disk…</p>;
  const changes = diffLines(disk, draft);
  if (!changes.some((c) => c.added || c.removed)) return <p className="muted">The version on disk is the same as your edit.</p>;
  return (
    <div className="conflict-diff" data-testid="conflict-diff" aria-label="Differences: on disk (−) and your edit (+)" role="group">
      {changes.map((c, i) => {
        const ls = lines(c);
        if (c.added || c.removed) {
          return ls.map((l, j) => (
            <div key={`${i}-${j}`} className={c.added ? 'diff-add' : 'diff-del'}>
              <span aria-hidden="true">{c.added ? '+ ' : '− '}</span>
              <span className="sr-only">{c.added ? 'your edit: ' : 'on disk: '}</span>
              {l || ' '}
            </div>
          ));
        }
        const shown = ls.length > CONTEXT * 2 + 1 ? [...ls.slice(0, i === 0 ? 0 : CONTEXT), `… ${ls.length - (i === 0 ? 0 : CONTEXT) - (i === changes.length - 1 ? 0 : CONTEXT)} unchanged lines …`, ...ls.slice(i === changes.length - 1 ? ls.length : ls.length - CONTEXT)] : ls;
        return shown.map((l, j) => (
          <div key={`${i}-${j}`} className="diff-same">
            {'  '}
            {l || ' '}
          </div>
        ));
      })}
    </div>
  );
}
