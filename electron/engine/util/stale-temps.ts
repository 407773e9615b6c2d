/**
 * Removing temp files that Cairn itself left behind when it was killed mid-write — and only
 * those: names of Cairn's own patterns that carry the writer's pid, removed when that
 * process is gone (or, in case the pid was reused, when the file is older than a day).
 *   - `.<name>.<pid>.<hex>.tmp`        atomic writes (util/atomic-write.ts): sessions.json,
 *                                      checkpoints, transcript rewrites, settings
 *   - `<name>.tmp-<pid>-<hex>[-wal|-shm|-journal]`  index rebuilds (index/reindex.ts)
 * Another live process's temp file is never touched: it may be mid-write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { processExists as isProcessAlive } from './process-alive';

/** A temp file this old is stale even when a process with its pid exists (pid reuse). */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Remove the stale temps in `dir` whose names match `re` (group 1: the writer's pid). Returns the names removed. */
function removeMatching(dir: string, re: RegExp, now: number): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = re.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid) continue;
    const p = path.join(dir, name);
    let old = false;
    try {
      old = now - fs.statSync(p).mtimeMs > STALE_TEMP_MS;
    } catch {
      continue; // gone already
    }
    if (isProcessAlive(pid) && !old) continue;
    fs.rmSync(p, { force: true });
    removed.push(name);
  }
  return removed;
}

/** Remove stale atomic-write temps of `file` (`.<name>.<pid>.<hex>.tmp`). Returns the names removed. */
export function removeStaleTemps(file: string, now = Date.now()): string[] {
  const re = new RegExp(`^\\.${escape(path.basename(file))}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  return removeMatching(path.dirname(file), re, now);
}

/** Remove stale index-rebuild temps of `indexFile` (`<name>.tmp-<pid>-<hex>` and its -wal/-shm/-journal). */
export function removeStaleIndexTemps(indexFile: string, now = Date.now()): string[] {
  const re = new RegExp(`^${escape(path.basename(indexFile))}\\.tmp-(\\d+)-[0-9a-f]+(?:-wal|-shm|-journal)?$`);
  return removeMatching(path.dirname(indexFile), re, now);
}

/** Remove every stale atomic-write temp in `dir`, whatever file it was for (start-up sweep). */
export function removeStaleTempsIn(dir: string, now = Date.now()): string[] {
  return removeMatching(dir, /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/, now);
}
