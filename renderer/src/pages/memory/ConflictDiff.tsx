/**
 * What differs between the file on disk and the unsaved edit, when the file changed on disk
 * while it was being edited: a line diff (components/LineDiff.tsx), unchanged runs
 * folded to a few lines around each change, so the user can decide to reload or overwrite.
 */
import { useEffect, useState } from 'react';
import { readMemory } from '../../stores/memory-read';
import { LineDiff } from '../../components/LineDiff';

export function ConflictDiff({ path, draft }: { path: string; draft: string }) {
  const [disk, setDisk] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    readMemory(path).then(
      (d) => live && setDisk(d.text),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [path]);
  if (error) return <p className="muted">The version on disk could not be read: {error}</p>;
  if (disk === undefined) return <p className="muted">Comparing with the version on disk…</p>;
  return (
    <LineDiff
      before={disk}
      after={draft}
      testId="conflict-diff"
      label="Differences: on disk (−) and your edit (+)"
      said={{ removed: 'on disk: ', added: 'your edit: ' }}
      unchanged="fold"
      same="The version on disk is the same as your edit."
    />
  );
}
