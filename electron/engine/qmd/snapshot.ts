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

/** Stat every file of the wanted collections now (off the main thread, a group at a time). */
export async function snapshotFiles(wanted: readonly WantedCollection[]): Promise<FileSnapshot> {
  const out: FileSnapshot = {};
  for (const w of wanted) {
    const files = await w.files();
    for (let i = 0; i < files.length; i += 64) {
      const group = files.slice(i, i + 64);
      const stats = await Promise.all(group.map((rel) => fs.promises.stat(path.join(w.dir, rel)).catch(() => null)));
      // A file that vanished between listing and stat is absent from the snapshot.
      group.forEach((rel, j) => {
        const st = stats[j];
        if (st) out[`${w.name}/${rel}`] = st.mtimeMs;
      });
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
