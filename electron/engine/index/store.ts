/**
 * Writes to the index: replace one file's chunks (rows, FTS, vectors) and the embedding
 * cache. Prepared statements are made once per handle; callers group calls in transactions.
 *
 * Each chunk vector is kept once as floats (half precision: half-float.ts), in `embedding_cache` (the row the chunk's
 * `embed_id` names, written here if the embed step did not), and as int8 in `chunks_vec`,
 * the candidate generator (schema.ts).
 */
import type { MemorySource } from '../../../shared/types/search';
import type Database from 'better-sqlite3';
import type { Db } from './db';
import { createLineWriter } from './line-vectors';
import { ftsIndexText } from '../../../shared/text/tokens';
import { sha256 } from './chunker';
import { halfBlob, halfVec, isHalfBlob } from './half-float';
import { packText } from './chunk-text';
import { cacheKey, cacheLayout, embedderId, usedStamp } from './vector-cache';

/** One chunk ready to store, with its context and (optionally) its vector. */
export interface ChunkRow {
  path: string;
  source: MemorySource;
  startLine: number;
  endLine: number;
  hash: string;
  text: string;
  heading: string | null;
  day: string | null;
  dated: boolean;
  evergreen: boolean;
  mtime: number;
  /** The context line + text: what the keyword and vector sides index. */
  body: string;
  /** sha256 of `body`: the embedding-cache key of `vector` (computed when absent). */
  bodyHash?: string | undefined;
  vector: Float32Array | null;
  /** One vector per line unit (line-vectors.ts), when the index keeps line vectors. */
  lineVectors?: Float32Array[] | undefined;
}

export interface FileRow {
  path: string;
  source: MemorySource;
  hash: string;
  mtime: number;
  size: number;
}

/** Int8Array → BLOB without copying. */
export function int8Blob(v: Int8Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Float32Array → BLOB without copying. */
export function vecBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/**
 * `v` scaled to unit length (a copy; the zero vector stays zero). Stored vectors are unit
 * length so that vec0's L2 distance orders exactly as cosine does (schema.ts).
 */
export function unitVec(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  const out = new Float32Array(v.length);
  if (n === 0) return out;
  const inv = 1 / Math.sqrt(n);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * inv;
  return out;
}

/**
 * `v` as int8, scaled so that its largest component is ±127 (the zero vector stays zero):
 * what `chunks_vec` stores and the KNN worker's copy scans. The scale is per vector, which
 * the cosine distance ignores.
 */
export function int8Vec(v: Float32Array): Int8Array {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const out = new Int8Array(v.length);
  if (max === 0) return out;
  const s = 127 / max;
  for (let i = 0; i < v.length; i++) out[i] = Math.round(v[i]! * s);
  return out;
}

/**
 * BLOB → Float32Array (copied: better-sqlite3 may reuse the buffer). Reads both a float32
 * blob and the compact half-precision copy of `embedding_cache` (half-float.ts).
 */
export function blobVec(b: Buffer): Float32Array {
  if (isHalfBlob(b)) return halfVec(b);
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

export interface Store {
  /** The index keeps line vectors (line-vectors.ts): chunks come with `lineVectors`. */
  readonly lineVectors: boolean;
  /** Delete a file's chunks (all tables) and its files row. */
  deleteFile(path: string): void;
  /** Replace a file: delete its old chunks, insert the new ones, upsert the files row. */
  replaceFile(file: FileRow, chunks: readonly ChunkRow[]): void;
  /**
   * The same in steps, for a file too big for one short transaction: drop its old chunks,
   * then `insertChunks` in batches, then `putFile`. Until `putFile` the files row keeps the
   * old hash, so an interrupted replace is redone (old chunks dropped again) by the next sync.
   */
  dropChunks(path: string): void;
  insertChunks(chunks: readonly ChunkRow[]): void;
  putFile(file: FileRow): void;
  /** Only the stat changed (same content): remember the new mtime/size. */
  touchFile(file: FileRow): void;
  cacheGet(provider: string, model: string, hashes: readonly string[]): Map<string, Float32Array>;
  cachePut(provider: string, model: string, entries: readonly { hash: string; vector: Float32Array }[], now: number): void;
}

/**
 * Statements for the stemmed keyword table (schema.ts), or null when this file has none (an
 * index older than schema 6) or keeps it in step by triggers on `chunks` (schema 6).
 */
function stemWriter(db: Db): { ins: Database.Statement; del: Database.Statement } | null {
  const has = (type: string, name: string) => db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get(type, name) !== undefined;
  if (!has('table', 'chunks_fts_stem') || has('trigger', 'chunks_stem_insert')) return null;
  return {
    ins: db.prepare('INSERT INTO chunks_fts_stem (rowid, body) VALUES (?, ?)'),
    del: db.prepare('DELETE FROM chunks_fts_stem WHERE rowid = ?'),
  };
}

/**
 * Ids of one day: a chunk id is its day key × DAY_IDS + its place among that day's chunks.
 * A prime, not a power of two: FTS5 finds a contentless table's deleted rowids (tombstones)
 * in a hash table of rowid modulo a power of two, and with ids of day × 2ⁿ + a small number
 * every day's rows fell into the same few slots — after a few edits the keyword side took
 * twice the CPU (docs/benchmarks.md, "Issue 40"). Every id stays below 2³¹.
 */
export const DAY_IDS = 16_381;
/** The day key above every date (≈ year 2298): the workspace's root memory files (MEMORY.md, USER.md). */
export const TOP_DAY = 120_000;

/**
 * The day key of a chunk's id (schema 9): days since 1970-01-01 of its date — a daily note's
 * file-name date, a transcript message's date, else the file's mtime day (an undated note:
 * when it was last edited) — or {@link TOP_DAY} for a root memory file (`MEMORY.md`,
 * `USER.md`), which never decays and so always counts as newest. FTS5 walks a doclist in
 * id order, so the keyword side's early stop (search/lexical.ts), which ranks the highest
 * ids a MATCH finds, ranks the newest by date: through a full rebuild (written in path
 * order), an incremental sync and an appended transcript alike.
 */
export function dayKey(c: Pick<ChunkRow, 'path' | 'source' | 'day' | 'evergreen' | 'mtime'>): number {
  if (c.evergreen && c.source === 'memory' && !c.path.includes('/')) return TOP_DAY;
  const ms = c.day && /^\d{4}-\d{2}-\d{2}$/.test(c.day) ? Date.parse(`${c.day}T00:00:00Z`) : c.mtime;
  const days = Math.floor((Number.isFinite(ms) ? ms : 0) / 86_400_000);
  return Math.min(TOP_DAY - 1, Math.max(0, days));
}

/**
 * Chunk ids by date ({@link dayKey}): a new chunk takes the next id of its day, above that
 * day's chunks, so within a day the latest synced is highest. A day with more than DAY_IDS
 * (16,381) chunks — ≈ 23 MB of text written in one day — overflows to the next id above
 * every other: still unique, ranked as the newest.
 *
 * Separately each chunk gets `added`, a counter that is never reused (`chunkAdded` in meta,
 * written in the same transaction as the chunks): the KNN worker's copy of the vectors
 * (search/knn-cache.ts) finds what a sync added as the chunks added after the last it saw.
 */
function chunkIds(db: Db): { begin(): void; id(key: number): number; added(): number; end(): void } {
  const bandMax = db.prepare('SELECT MAX(id) FROM chunks WHERE id >= ? AND id < ?').pluck();
  const maxId = db.prepare('SELECT COALESCE(MAX(id), 0) FROM chunks').pluck();
  const addedHigh = db.prepare("SELECT MAX(COALESCE((SELECT MAX(added) FROM chunks), 0), COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'chunkAdded'), 0))").pluck();
  const setAdded = db.prepare("INSERT INTO meta (key, value) VALUES ('chunkAdded', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
  let last = new Map<number, number>();
  let added = 0;
  return {
    begin() {
      last = new Map();
      added = Number(addedHigh.get());
    },
    id(key) {
      const lo = key * DAY_IDS;
      let prev = last.get(key);
      if (prev === undefined) prev = (bandMax.get(lo, lo + DAY_IDS) as number | null) ?? lo - 1;
      let id = prev + 1;
      if (id >= lo + DAY_IDS) id = Math.max(Number(maxId.get()), prev) + 1; // the day is full
      last.set(key, id);
      return id;
    },
    added: () => ++added,
    end: () => void setAdded.run(String(added)),
  };
}

/** How a store writes: the embedder (the float copies' cache key) and the vector table's kind. */
export interface StoreOptions {
  provider: string | null;
  model: string | null;
  vectors: 'vec0' | 'fallback' | 'none';
}

/**
 * Writes of chunk vectors: the int8 row of `chunks_vec` and the float copy in
 * `embedding_cache` (already there when the embed step cached it). Null when the index
 * keeps no vectors.
 */
function vectorWriter(
  db: Db,
  opts: StoreOptions,
): { hashOf(c: ChunkRow): Buffer | null; floatRow(c: ChunkRow, key: Buffer): number; write(id: bigint, c: ChunkRow): void } | null {
  const { provider, model } = opts;
  if (opts.vectors === 'none' || provider === null || model === null) return null;
  const insVec = db.prepare(`INSERT INTO chunks_vec (rowid, embedding, source, day) VALUES (?, ${opts.vectors === 'vec0' ? 'vec_int8(?)' : '?'}, ?, ?)`);
  const floatId = db.prepare('SELECT id FROM embedding_cache WHERE embedder = ? AND hash = ?').pluck();
  const keepFloat = db.prepare('INSERT INTO embedding_cache (embedder, hash, used, embedding) VALUES (?, ?, ?, ?)');
  let embedder: number | null = null;
  return {
    // With line vectors a chunk's vector is the mean of its lines' (line-vectors.ts), not the
    // embedding of its body: kept under a key of its own, so that an index of the same model
    // without line vectors never takes that mean from the cache for the body's embedding.
    hashOf: (c) => (c.vector ? cacheKey(c.lineVectors ? `mean:${c.bodyHash ?? sha256(c.body)}` : (c.bodyHash ?? sha256(c.body))) : null),
    floatRow(c, key) {
      embedder ??= embedderId(db, provider, model, true);
      const had = floatId.get(embedder, key) as number | undefined;
      return had ?? Number(keepFloat.run(embedder, key, usedStamp(Date.now()), halfBlob(c.vector!)).lastInsertRowid);
    },
    write(id, c) {
      insVec.run(id, int8Blob(int8Vec(c.vector!)), c.source, c.day);
    },
  };
}

/** The embedding cache's reads and writes by (provider, model, hash) (vector-cache.ts's keys). */
function cacheStatements(db: Db): Pick<Store, 'cacheGet' | 'cachePut'> {
  const cacheSel = db.prepare('SELECT embedding FROM embedding_cache WHERE embedder = ? AND hash = ?').pluck();
  const cacheIns = db.prepare(
    `INSERT INTO embedding_cache (embedder, hash, used, embedding) VALUES (?, ?, ?, ?)
     ON CONFLICT(embedder, hash) DO UPDATE SET embedding = excluded.embedding, used = excluded.used`,
  );
  const embedders = new Map<string, number | null>();
  /** The embedder's id (made on the first write; null: nothing cached for it yet). */
  const embedderOf = (provider: string, model: string, create: boolean): number | null => {
    const k = `${provider}\0${model}`;
    let id = embedders.get(k) ?? null;
    if (id === null) {
      id = embedderId(db, provider, model, create);
      if (id !== null) embedders.set(k, id);
    }
    return id;
  };

  const get: Store['cacheGet'] = (provider, model, hashes) => {
    const out = new Map<string, Float32Array>();
    const emb = embedderOf(provider, model, false);
    if (emb === null) return out;
    for (const h of hashes) {
      const b = cacheSel.get(emb, cacheKey(h)) as Buffer | undefined;
      if (b) out.set(h, blobVec(b));
    }
    return out;
  };
  const put: Store['cachePut'] = (provider, model, entries, now) => {
    if (entries.length === 0) return;
    const emb = embedderOf(provider, model, true);
    for (const e of entries) cacheIns.run(emb, cacheKey(e.hash), usedStamp(now), halfBlob(e.vector));
  };
  return { cacheGet: get, cachePut: put };
}

export function createStore(db: Db, opts: StoreOptions): Store {
  const idsOf = db.prepare('SELECT id FROM chunks WHERE path = ?').pluck();
  const delChunk = db.prepare('DELETE FROM chunks WHERE id = ?');
  const delFts = db.prepare('DELETE FROM chunks_fts WHERE rowid = ?');
  const delVec = opts.vectors === 'none' ? null : db.prepare('DELETE FROM chunks_vec WHERE rowid = ?');
  const delFile = db.prepare('DELETE FROM files WHERE path = ?');
  const insChunk = db.prepare(
    `INSERT INTO chunks (id, added, path, source, start_line, end_line, embed_id, text, heading, day, dated, evergreen, mtime)
     VALUES (@id, @added, @path, @source, @startLine, @endLine, @embedId, @text, @heading, @day, @dated, @evergreen, @mtime)`,
  );
  const ids = chunkIds(db);
  const insFts = db.prepare('INSERT INTO chunks_fts (rowid, body) VALUES (?, ?)');
  const stem = stemWriter(db);
  const vectors = vectorWriter(db, opts);
  const upFile = db.prepare(
    `INSERT INTO files (path, source, hash, mtime, size) VALUES (@path, @source, @hash, @mtime, @size)
     ON CONFLICT(path) DO UPDATE SET source = excluded.source, hash = excluded.hash, mtime = excluded.mtime, size = excluded.size`,
  );
  const touch = db.prepare('UPDATE files SET mtime = @mtime, size = @size WHERE path = @path');
  const cache = cacheStatements(db);

  const lines = opts.vectors === 'none' ? null : createLineWriter(db);

  const deleteChunks = (path: string) => {
    for (const id of idsOf.all(path) as number[]) {
      lines?.deleteOf(id);
      delFts.run(id);
      stem?.del.run(id);
      delVec?.run(BigInt(id));
      delChunk.run(id);
    }
  };

  const insertChunks = (chunks: readonly ChunkRow[]) => {
    if (chunks.length === 0) return;
    ids.begin();
    for (const c of chunks) {
      const key = vectors?.hashOf(c) ?? null;
      const embedId = key !== null ? vectors!.floatRow(c, key) : null;
      const info = insChunk.run({
        id: ids.id(dayKey(c)),
        added: ids.added(),
        path: c.path,
        source: c.source,
        startLine: c.startLine,
        endLine: c.endLine,
        embedId,
        text: packText(c.text),
        heading: c.heading,
        day: c.day,
        dated: c.dated ? 1 : 0,
        evergreen: c.evergreen ? 1 : 0,
        mtime: Math.round(c.mtime),
      });
      const id = BigInt(info.lastInsertRowid);
      insFts.run(id, ftsIndexText(c.body));
      stem?.ins.run(id, c.text);
      if (embedId !== null) vectors!.write(id, c);
      if (lines && c.lineVectors?.length) lines.insert(id, c.lineVectors.map((v) => vecBlob(unitVec(v))), c.source, c.day);
    }
    ids.end();
  };

  return {
    lineVectors: lines !== null,
    deleteFile(path) {
      deleteChunks(path);
      delFile.run(path);
    },
    replaceFile(file, chunks) {
      deleteChunks(file.path);
      insertChunks(chunks);
      upFile.run({ ...file, mtime: Math.round(file.mtime) });
    },
    dropChunks: deleteChunks,
    insertChunks: (chunks) => insertChunks(chunks),
    putFile(file) {
      upFile.run({ ...file, mtime: Math.round(file.mtime) });
    },
    touchFile(file) {
      touch.run({ path: file.path, mtime: Math.round(file.mtime), size: file.size });
    },
    cacheGet: cache.cacheGet,
    cachePut: cache.cachePut,
  };
}

/**
 * Keep `embedding_cache` at about `max` entries, the least recently written going first —
 * but never an entry a chunk of the index needs (`chunks.embed_id`; before schema 11
 * `embed_hash` for the index's `provider` and `model`): that entry is the chunk's only float vector. When the live chunks
 * alone need more than `max`, only the entries no chunk needs are dropped. Returns how many
 * were deleted.
 */
export function pruneEmbeddingCache(db: Db, max: number, key: { provider: string | null; model: string | null }): number {
  const total = db.prepare('SELECT COUNT(*) FROM embedding_cache').pluck().get() as number;
  if (total <= max) return 0;
  if (cacheLayout(db) === 'keyed') {
    const emb = key.provider !== null && key.model !== null ? embedderId(db, key.provider, key.model, false) : null;
    const liveKeyed = 'embedder = ? AND id IN (SELECT embed_id FROM chunks WHERE embed_id IS NOT NULL)';
    const neededKeyed = emb !== null ? (db.prepare(`SELECT COUNT(*) FROM embedding_cache WHERE ${liveKeyed}`).pluck().get(emb) as number) : 0;
    return db
      .prepare(
        `DELETE FROM embedding_cache WHERE id IN (
           SELECT id FROM embedding_cache WHERE NOT (${liveKeyed}) ORDER BY used DESC LIMIT -1 OFFSET ?)`,
      )
      .run(emb ?? -1, Math.max(0, max - neededKeyed)).changes;
  }
  const live = `provider = ? AND model = ? AND hash IN (SELECT embed_hash FROM chunks WHERE embed_hash IS NOT NULL)`;
  const needed = key.provider !== null && key.model !== null ? (db.prepare(`SELECT COUNT(*) FROM embedding_cache WHERE ${live}`).pluck().get(key.provider, key.model) as number) : 0;
  return db
    .prepare(
      `DELETE FROM embedding_cache WHERE rowid IN (
         SELECT rowid FROM embedding_cache WHERE NOT (${live}) ORDER BY updated_at DESC LIMIT -1 OFFSET ?)`,
    )
    .run(key.provider ?? '', key.model ?? '', Math.max(0, max - needed)).changes;
}
