/**
 * The index schema (SPEC §6): `meta`, `files`, `chunks`, `chunks_fts` (FTS5), `chunks_vec`
 * (sqlite-vec `vec0`, or a plain table scanned in-process when sqlite-vec cannot load) and
 * `embedding_cache`. The index identity (embedder, chunking, sources, …) is kept in `meta`;
 * when it changes the whole index is rebuilt.
 */
import type { Db } from './db';

/**
 * Bump when the table layout or what is indexed changes: forces a full reindex
 * (6: `chunks_fts_stem`, the stemmed keyword table beside the exact one; 7: that table is
 * written by store.ts, no longer by triggers on `chunks`; 8: `chunks_vec` holds int8
 * vectors, the floats are kept once, in `embedding_cache`, found by `chunks.embed_hash`;
 * 9: chunk ids follow the chunks' dates (store.ts `dayKey`), `chunks.added` orders them by
 * when they were written; 10: the float copies are half precision, half-float.ts, and the
 * chunk text is stored compressed, chunk-text.ts; 11: `embedding_cache` is keyed by an
 * embedder id and the 32-byte hash, `chunks.embed_id` names its row, and `chunks` drops
 * `hash` and `model` — vector-cache.ts, docs/benchmarks.md "Issue 40").
 * The rebuild carries the old file's `embedding_cache` over (reindex.ts): nothing is
 * embedded again.
 */
export const SCHEMA_VERSION = 11;

/**
 * Whether the vector side can read an index built with `id`: only one of the current schema.
 * An older index answers from its keyword side (its FTS tables and chunk rows stay readable)
 * while its one rebuild runs beside the searches (search/builtin-backend.ts).
 */
export function vectorsReadable(id: IndexIdentity): boolean {
  return id.schema === SCHEMA_VERSION;
}

/** What the index was built with; any difference means a full reindex. */
export interface IndexIdentity {
  schema: number;
  provider: string | null;
  model: string | null;
  dims: number | null;
  /** `version` changes when the chunker's output changes for the same settings. */
  chunking: { tokens: number; overlap: number; version: number };
  sources: string[];
  extraPaths: string[];
  vector: 'vec0' | 'fallback' | 'none';
  /** Line vectors kept beside the chunk vectors (line-vectors.ts); absent = none. */
  lines?: true | undefined;
  /** Version of the rules deciding which line units are embedded (line-vectors.ts `LINE_UNITS_VERSION`). */
  lineUnits?: number | undefined;
}

/** Create every table except the vector table (whose dims depend on the embedder). */
export function createBaseSchema(db: Db): void {
  db.exec(`
    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS files (
      path TEXT PRIMARY KEY, source TEXT NOT NULL, hash TEXT NOT NULL,
      mtime INTEGER NOT NULL, size INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS chunks (
      -- The id follows the chunk's date (store.ts dayKey): the keyword side's early stop
      -- ranks the highest ids a MATCH finds, the newest by date. "added" counts writes (never
      -- reused): what a sync added, for the KNN worker's copy (search/knn-cache.ts).
      id INTEGER PRIMARY KEY, added INTEGER NOT NULL, path TEXT NOT NULL, source TEXT NOT NULL,
      start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
      -- The embedding_cache row (its id) of the chunk's float vector, the one exact copy;
      -- NULL when the chunk has no vector. Before text: a read of it never walks a long
      -- text's overflow pages. (Schema ≤ 10 named the row by "embed_hash", the hex key, and
      -- kept the text's hex sha256 as "hash" and the model's name as "model" in every row;
      -- neither of those two was read, and the text gives the hash again.)
      embed_id INTEGER,
      -- The chunk text, compressed (chunk-text.ts; a TEXT in an index older than schema 10).
      text BLOB NOT NULL,
      heading TEXT,            -- nearest heading above the chunk
      day TEXT,                -- YYYY-MM-DD: file-name date, message date, else mtime date
      dated INTEGER NOT NULL,  -- 1 when day comes from the file name / message, 0 from mtime
      evergreen INTEGER NOT NULL, -- MEMORY.md and undated memory notes never decay
      mtime INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
    CREATE INDEX IF NOT EXISTS chunks_day ON chunks(day);
    CREATE INDEX IF NOT EXISTS chunks_added ON chunks(added);
    -- Covering index for the keyword side's source/date filters: the join from an FTS match
    -- reads these narrow pages instead of the chunk rows (≈ 1.6 KB of text each).
    CREATE INDEX IF NOT EXISTS chunks_filter ON chunks(id, source, day);
    CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(
      body, tokenize = 'unicode61 remove_diacritics 2', content = '', contentless_delete = 1
    );
    -- Per-term document counts (a view over the FTS index, no storage): lets the keyword
    -- side skip terms so common they cost much and add nothing to BM25.
    CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_vocab USING fts5vocab(chunks_fts, 'row');
    -- The chunk text stemmed (FTS5's Porter stemmer over unicode61): "camped" finds
    -- "camping". Searched beside chunks_fts and weighted below it (search/lexical.ts), so
    -- an exact token still ranks first. It holds the text without the date/heading line,
    -- which the exact table matches already. Written by store.ts beside chunks_fts, not by
    -- triggers: a trigger makes every INSERT into chunks a statement with its own savepoint,
    -- and FTS5 flushes its pending terms into a new segment at every savepoint — one
    -- segment per chunk, so a bulk rebuild (merging paused) of one file of ~4,000 chunks
    -- reached FTS5's 2,000-segment limit and failed with "database or disk is full".
    CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts_stem USING fts5(
      body, tokenize = 'porter unicode61 remove_diacritics 2', content = '', contentless_delete = 1
    );
    -- The float vectors, each kept once: the embedder's output by (provider, model, hash of
    -- the embedded text). Besides sparing a re-embed of unchanged text (and surviving a
    -- rebuild, reindex.ts), it is the exact copy of every chunk vector: chunks_vec holds only
    -- an int8 candidate generator, whose candidates are re-scored from here
    -- (search/exact-vectors.ts). memory-index.ts never prunes an entry a chunk needs.
    -- Keyed by the embedder's id (its provider and model once, in "embedders") and the
    -- 32-byte hash (vector-cache.ts). A rowid table, written in append order and so packed
    -- full; a table keyed by the hash (WITHOUT ROWID) fills its pages in random key order,
    -- about 70 % full. "used": seconds, for the size cap's least-recently-written order
    -- (store.ts pruneEmbeddingCache). The dims are the blob's.
    CREATE TABLE IF NOT EXISTS embedders (
      id INTEGER PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, UNIQUE (provider, model)
    );
    CREATE TABLE IF NOT EXISTS embedding_cache (
      id INTEGER PRIMARY KEY, embedder INTEGER NOT NULL, hash BLOB NOT NULL, used INTEGER NOT NULL,
      embedding BLOB NOT NULL, UNIQUE (embedder, hash)
    );
  `);
}

/**
 * Create `chunks_vec`: `vec0` KNN index with filterable metadata, or the fallback table.
 * It is only a candidate generator: each vector as int8, scaled so that its largest
 * component is ±127 (store.ts `int8Vec`, a quarter of the float's bytes), compared by
 * cosine distance — which that per-row scale does not change, where L2 would. A search
 * fetches a few times the candidates it needs and re-scores them exactly against the float
 * copy in `embedding_cache` (search/exact-vectors.ts), so scores and order are the float
 * ones. The fallback table holds the same int8 blobs.
 */
export function createVectorTable(db: Db, dims: number, kind: 'vec0' | 'fallback'): void {
  if (kind === 'vec0') {
    db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS chunks_vec USING vec0(embedding int8[${dims}] distance_metric=cosine, source text, day text)`);
  } else {
    db.exec('CREATE TABLE IF NOT EXISTS chunks_vec (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL, source TEXT NOT NULL, day TEXT)');
  }
}

export function readMeta(db: Db, key: string): string | undefined {
  try {
    return (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  } catch {
    return undefined; // no meta table yet
  }
}

export function writeMeta(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

export function readIdentity(db: Db): IndexIdentity | undefined {
  const raw = readMeta(db, 'identity');
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as IndexIdentity;
  } catch {
    return undefined;
  }
}

/** Stable comparison of two identities. */
export function sameIdentity(a: IndexIdentity | undefined, b: IndexIdentity): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** True when the table exists (used to tell an empty file from an index). */
export function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").get(name) !== undefined;
}
