/**
 * Line-level vectors ("turn isolation"): besides one vector per ~1,600-char chunk,
 * the index may keep one vector per line unit of the chunk (a dialogue turn, a bullet, a
 * paragraph line; lines too short to mean anything alone left out), so that the vector side
 * scores a chunk by its *best line* (max-sim) instead of one averaged vector in which the one line that
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
 * changed or resumed index embeds only lines it has never seen. With line vectors a chunk's
 * own vector is the mean of its lines' (`chunkVectorFromLines`): its body is not embedded.
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
 * 0.682, for ≈ 2× the indexing CPU at first; since the chunk vector is the mean of its
 * lines' (`chunkVectorFromLines`), an index with line vectors embeds fewer tokens than one
 * without (2.3 M against 2.7 M on the 10k corpus). The static embedder (potion-base-8M,
 * weight 0.5):
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

/** A line whose words (after a speaker label or list marker) are shorter than this (chars) says nothing alone ("Great.", "**Ann:** Hi!"): it gets no unit. */
export const MIN_LINE_CHARS = 16;

/**
 * Which line units an index embeds. The index uses {@link LINE_UNIT_RULES};
 * bench/line-units.ts measures the others (docs/benchmarks.md, "Fewer tokens for the real
 * embedder").
 */
export interface LineUnitRules {
  /** Merge a unit shorter than this (chars) with the next line (0 = every line alone: the ~80-token overlap of two chunks then gives the same units, one cache entry each). */
  mergeBelow: number;
  /** Leave out a line whose words are shorter than this (chars; 0 = none). */
  dropBelow: number;
  /** Cut a unit longer than this (chars) to its head, at a word boundary (0 = never). */
  maxChars: number;
  /** Leave out a unit that is at least this share of its chunk's text (1 = never). */
  maxShare: number;
}

/** The rules an index applies (measured on LoCoMo and the 10k corpus; docs/benchmarks.md). */
export const LINE_UNIT_RULES: LineUnitRules = { mergeBelow: 0, dropBelow: MIN_LINE_CHARS, maxChars: 0, maxShare: 1 };

/**
 * Version of what an index with line vectors embeds, kept in the index identity
 * (`lineUnits`): a change rebuilds an index once, from its embedding cache.
 * 2: every line its own unit, lines that say nothing alone left out; a chunk's vector is the
 * mean of its units' (`chunkVectorFromLines`) instead of its embedded body.
 */
export const LINE_UNITS_VERSION = 2;

/** A line's words without a leading speaker label (`**Ann:**`, `User:`) or list marker. */
function words(line: string): string {
  return line.replace(/^(?:[-*+>]|\d+[.)])\s+/, '').replace(/^(?:\*\*[^*\n]{1,40}:\*\*|(?:User|Assistant|System|Tool):)\s*/, '');
}

/** `text` cut to at most `max` chars, at the last space before the limit when there is one. */
function head(text: string, max: number): string {
  if (max <= 0 || text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

/**
 * A chunk's text → the texts of its line units: non-empty lines, Markdown heading lines
 * left out (a chunk's heading is in its context line already, and "## Session 3" alone
 * matches nothing), each line its own unit, lines that say nothing alone left out (`rules`
 * can merge short lines or cut long ones instead: bench/line-units.ts). A chunk with no such
 * line (only headings or short lines) gives its whole text as one unit, so every chunk has one.
 */
export function lineUnits(text: string, rules: LineUnitRules = LINE_UNIT_RULES): string[] {
  const out: string[] = [];
  let cur = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || /^#{1,6}\s/.test(line)) continue;
    if (rules.dropBelow && words(line).length < rules.dropBelow) continue;
    cur = cur ? `${cur}\n${line}` : line;
    if (cur.length >= rules.mergeBelow) {
      out.push(cur);
      cur = '';
    }
  }
  // A short tail joins the unit before it rather than standing alone.
  if (cur) {
    if (out.length > 0) out[out.length - 1] = `${out[out.length - 1]}\n${cur}`;
    else out.push(cur);
  }
  const kept = out.filter((u) => rules.maxShare >= 1 || u.length < rules.maxShare * text.length).map((u) => head(u, rules.maxChars));
  if (kept.length === 0 && text.trim()) kept.push(text.trim());
  return kept;
}

/**
 * A chunk's vector in an index with line vectors: the normalised mean of its line units'
 * vectors, so its body is not embedded at all (with the units of version 2: LoCoMo turn
 * recall with MiniLM 0.868 → 0.869 for 55 % fewer tokens on the 10k corpus;
 * docs/benchmarks.md). The store normalises it.
 */
export function chunkVectorFromLines(vectors: readonly Float32Array[], dims: number): Float32Array {
  const m = new Float32Array(dims);
  for (const v of vectors) {
    let n = 0;
    for (let i = 0; i < dims; i++) n += (v[i] ?? 0) ** 2;
    const k = n > 0 ? 1 / Math.sqrt(n) : 0;
    for (let i = 0; i < dims; i++) m[i] = (m[i] ?? 0) + (v[i] ?? 0) * k;
  }
  return m;
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
