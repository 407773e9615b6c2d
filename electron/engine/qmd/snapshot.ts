/**
 * What the collections held at the last refresh: collection-relative path → mtime. A search
 * compares it with the files now (a stat per file, like the built-in index's dirty check)
 * and, when memory files were added, edited or deleted since, waits for a refresh first —
 * QMD itself only sees changes on `qmd update`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { WantedCollection } from './collections';

export type FileSnapshot = Record<string, number>;

/** Stat every file of the wanted collections now. */
export function snapshotFiles(wanted: readonly WantedCollection[]): FileSnapshot {
  const out: FileSnapshot = {};
  for (const w of wanted) {
    for (const rel of w.files()) {
      try {
        out[`${w.name}/${rel}`] = fs.statSync(path.join(w.dir, rel)).mtimeMs;
      } catch {
        // vanished between listing and stat: absent from the snapshot
      }
    }
  }
  return out;
}

/** True when both snapshots list the same files with the same mtimes. */
export function sameSnapshot(a: FileSnapshot, b: FileSnapshot): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => b[k] === a[k]);
}
