/**
 * Line-level vectors ("turn isolation"): besides one vector per ~1,600-char chunk,
 * the index may keep one vector per line unit of the chunk (a dialogue turn, a bullet, a
 * paragraph line; short lines merged with the next), so that the vector side scores a chunk
 * by its *best line* (max-sim) instead of one averaged vector in which the one line that
 * answers is diluted by fifteen that do not (arXiv 2606.04194 reports +11 points over BM25
 * on LoCoMo this way).
 *
 * Tables (created only when the index identity says `lines`):
 * - `chunk_lines(id, chunk_id)` — which chunk a line vector belongs to (a chunk's lines are
 *   dropped with it; indexed by chunk_id);
 * - `lines_vec` — the line vectors: a vec0 table with the same `source`/`day` metadata as
 *   `chunks_vec`, or the fallback plain table. A search reads them by rowid for the chunks
 *   it re-scores (search/line-candidates.ts); since round 4 no search scans them all.
 * Line vectors share the embedding cache with chunks (keyed by the text's sha256), so a
 * changed or resumed index embeds only lines it has never seen.
 */
import type { Db } from './db';
import { sha256 } from './chunker';
import { hasTable } from './schema';

/** Whether line vectors are built: `auto` takes the per-embedder default measured below. */
export type LineVectorsSetting = 'auto' | 'on' | 'off';

/**
 * Per-embedder-provider default for `auto` (docs/benchmarks.md, "Search quality on LoCoMo",
 * line vectors): on where they measurably helped. Local GGUF models (all-MiniLM-L6-v2):
 * LoCoMo turn recall 0.846 → 0.852, multi-hop 0.526 → 0.548, vector side alone 0.596 →
 * 0.682, for ≈ 2× the indexing CPU. The static embedder (potion-base-8M, weight 0.5):
 * 0.872 → 0.873 for 62.2 → 63.5 lines per answer (the averaged GloVe it replaced: 0.845 →
 * 0.843), and ~8× the vectors to scan at 100k chunks, so off. Remote models: unmeasured, off (every line is a paid request).
 */
export const DEFAULT_LINE_VECTORS: Record<string, boolean> = {
  static: false,
  local: true,
};

/** Whether an index for `provider` (null = no embedder) keeps line vectors. */
export function lineVectorsFor(setting: LineVectorsSetting | undefined, provider: string | null): boolean {
  if (provider === null) return false;
  if (setting === 'on') return true;
  if (setting === 'off') return false;
  return DEFAULT_LINE_VECTORS[provider] ?? false;
}

/** A line unit shorter than this (chars) is merged with the next line. */
export const MIN_UNIT_CHARS = 48;

/**
 * A chunk's text → the texts of its line units: non-empty lines, Markdown heading lines
 * left out (a chunk's heading is in its context line already, and "## Session 3" alone
 * matches nothing), short lines merged with the following ones until `MIN_UNIT_CHARS`.
 * A chunk with no such line (only headings) gives its whole text as one unit.
 */
export function lineUnits(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || /^#{1,6}\s/.test(line)) continue;
    cur = cur ? `${cur}\n${line}` : line;
    if (cur.length >= MIN_UNIT_CHARS) {
      out.push(cur);
      cur = '';
    }
  }
  // A short tail joins the unit before it rather than standing alone.
  if (cur) {
    if (out.length > 0) out[out.length - 1] = `${out[out.length - 1]}\n${cur}`;
    else out.push(cur);
  }
  if (out.length === 0 && text.trim()) out.push(text.trim());
  return out;
}

/** A line unit with its cache key. */
export interface LineUnit {
  text: string;
  hash: string;
}

/** `lineUnits` with their embedding-cache keys. */
export function hashedLineUnits(text: string): LineUnit[] {
  return lineUnits(text).map((t) => ({ text: t, hash: sha256(t) }));
}

/** Create the line tables beside `chunks_vec` (same dims and kind). */
export function createLineTables(db: Db, dims: number, kind: 'vec0' | 'fallback'): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS chunk_lines (id INTEGER PRIMARY KEY, chunk_id INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS chunk_lines_chunk ON chunk_lines(chunk_id);
  `);
  if (kind === 'vec0') {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS lines_vec USING vec0(embedding float[${dims}], source text, day text)`);
  } else {
    db.exec('CREATE TABLE IF NOT EXISTS lines_vec (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL, source TEXT NOT NULL, day TEXT)');
  }
}

/** Whether this index keeps line vectors. */
export function hasLineTables(db: Db): boolean {
  return hasTable(db, 'chunk_lines') && hasTable(db, 'lines_vec');
}

/** Writes of one chunk's line vectors (statements prepared once per store). */
export interface LineWriter {
  insert(chunkId: bigint, vectors: readonly Buffer[], source: string, day: string | null): void;
  deleteOf(chunkId: number): void;
}

/** A writer for the line tables of `db`, or null when the index has none. */
export function createLineWriter(db: Db): LineWriter | null {
  if (!hasLineTables(db)) return null;
  const insLine = db.prepare('INSERT INTO chunk_lines (chunk_id) VALUES (?)');
  const insVec = db.prepare('INSERT INTO lines_vec (rowid, embedding, source, day) VALUES (?, ?, ?, ?)');
  const idsOf = db.prepare('SELECT id FROM chunk_lines WHERE chunk_id = ?').pluck();
  const delVec = db.prepare('DELETE FROM lines_vec WHERE rowid = ?');
  const delLines = db.prepare('DELETE FROM chunk_lines WHERE chunk_id = ?');
  return {
    insert(chunkId, vectors, source, day) {
      for (const v of vectors) {
        const id = BigInt(insLine.run(chunkId).lastInsertRowid);
        insVec.run(id, v, source, day);
      }
    },
    deleteOf(chunkId) {
      for (const id of idsOf.all(chunkId) as number[]) delVec.run(BigInt(id));
      delLines.run(chunkId);
    },
  };
}
