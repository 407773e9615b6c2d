/**
 * FTS5 segment merging for a bulk rebuild, done in small steps between yields. FTS5's
 * automerge does its merge work inside the flush at each commit — 30–60 ms at a time on a
 * 10k-chunk index, a stall of the event loop — and its crisis merge (16 segments on one
 * level) is one long step. During the rebuild both are turned off and the same merging is
 * done with the `merge` command, a few pages per call, yielding between calls; at the end
 * the defaults are put back, so the finished index behaves exactly like any other. Both
 * FTS tables (exact and stemmed) are handled alike.
 */
import type { Db } from './db';
import { abortError } from '../util/abort';

/** FTS5's defaults (https://sqlite.org/fts5.html#the_automerge_configuration_option). */
const DEFAULT_AUTOMERGE = 4;
const DEFAULT_CRISISMERGE = 16;
/** Pages merged per `merge` call: a few milliseconds of work. */
const PAGES_PER_STEP = 64;

/** The FTS5 tables of the index: exact tokens, and stemmed (absent in an index older than schema 6). */
const FTS_TABLES = ['chunks_fts', 'chunks_fts_stem'] as const;

function tablesOf(db: Db): string[] {
  return FTS_TABLES.filter((t) => t === 'chunks_fts' || db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(t));
}

function ftsCommand(db: Db, command: string, value: number, tables = tablesOf(db)): void {
  // FTS5's special-insert syntax; the value is a literal so it is stored as an integer.
  for (const t of tables) db.exec(`INSERT INTO ${t}(${t}, rank) VALUES('${command}', ${Math.trunc(value)})`);
}

/** Turn FTS5's own merging off for the bulk load (merge with `mergeFts` instead). */
export function pauseFtsMerging(db: Db): void {
  ftsCommand(db, 'automerge', 0);
  // The largest value FTS5 accepts: level-0 segments are merged by `mergeFts`, never all at once.
  ftsCommand(db, 'crisismerge', 2000);
}

/** Put FTS5's default merge settings back (before the file becomes the index). */
export function resumeFtsMerging(db: Db): void {
  ftsCommand(db, 'automerge', DEFAULT_AUTOMERGE);
  ftsCommand(db, 'crisismerge', DEFAULT_CRISISMERGE);
}

/**
 * Merge segments the way automerge would (levels with `usermerge` = 4 or more segments),
 * `PAGES_PER_STEP` pages per call, calling `yieldNow` between calls; returns when there is
 * nothing left to merge. `whole`: merge across levels until each table is one segment (what
 * `optimize` does, in steps) — the end of a rebuild. Chunk ids follow dates (store.ts), so a
 * rebuild written in path order inserts lower ids after higher ones, and FTS5 flushes a
 * segment at each: left at automerge's levels, the keyword side took ~1.5× the CPU (100k
 * chunks: p50 6.6 → 9.5 ms); merged, 6.3 ms, for ≈ 5 s of merging per table per 100k
 * chunks (docs/benchmarks.md, "Issue 40").
 */
export async function mergeFts(db: Db, yieldNow: () => Promise<void>, signal?: AbortSignal, whole = false): Promise<void> {
  const changes = db.prepare('SELECT total_changes()').pluck();
  // One table at a time: the "nothing left" test below is per merge command.
  for (const t of tablesOf(db)) {
    for (;;) {
      if (signal?.aborted) throw abortError(undefined, 'indexing cancelled');
      const before = changes.get() as number;
      ftsCommand(db, 'merge', whole ? -PAGES_PER_STEP : PAGES_PER_STEP, [t]);
      // FTS5 documents a delta below 2 as "found nothing to merge".
      if ((changes.get() as number) - before < 2) break;
      await yieldNow();
    }
  }
}
