/**
 * The keys of `embedding_cache`, the float copy of every vector (schema.ts). Schema 11 keeps
 * each row under (`embedder`, `hash`): the embedder's provider and model once, in the small
 * `embedders` table, referred to by an integer, and the hash of the embedded text as its
 * 32 raw bytes — where schema 10 repeated both strings and the 64-character hex hash in
 * every row and again in its primary-key index (≈ 200 bytes a chunk; docs/benchmarks.md,
 * "Issue 40"). A chunk names its row by the row's id (`chunks.embed_id`). Readers of an older index
 * (text keys, a rowid table) go through {@link cacheLayout} and the same functions.
 */
import crypto from 'node:crypto';
import type { Db } from './db';

/**
 * The 32-byte key of an embedding-cache hash: a sha256 in hex as its bytes; any other key
 * (`mean:<hex>`, line-vectors.ts) as the sha256 of its text — the same key every time.
 */
export function cacheKey(hash: string): Buffer {
  return /^[0-9a-f]{64}$/.test(hash) ? Buffer.from(hash, 'hex') : crypto.createHash('sha256').update(hash, 'utf8').digest();
}

/** `keyed`: schema 11 (embedder id, 32-byte hash); `text`: older (provider, model, hex hash). */
export type CacheLayout = 'keyed' | 'text' | 'none';

/** Which layout the file's `embedding_cache` has (a schema change recreates the file, so it is read per call). */
export function cacheLayout(db: Db): CacheLayout {
  const cols = db.prepare("SELECT name FROM pragma_table_info('embedding_cache')").pluck().all() as string[];
  if (cols.length === 0) return 'none';
  return cols.includes('embedder') ? 'keyed' : 'text';
}

/** The id of (provider, model) in `embedders`, made when `create`; null when absent. */
export function embedderId(db: Db, provider: string, model: string, create: boolean): number | null {
  const got = db.prepare('SELECT id FROM embedders WHERE provider = ? AND model = ?').pluck().get(provider, model) as number | undefined;
  if (got !== undefined || !create) return got ?? null;
  return Number(db.prepare('INSERT INTO embedders (provider, model) VALUES (?, ?)').run(provider, model).lastInsertRowid);
}

/**
 * A reader of one embedder's cached vectors by hash, in either layout: the stored blob
 * (half-float.ts or float32), or undefined.
 */
export function cacheReader(db: Db, provider: string, model: string): (hash: string) => Buffer | undefined {
  const layout = cacheLayout(db);
  if (layout === 'none') return () => undefined;
  if (layout === 'text') {
    const get = db.prepare('SELECT embedding FROM embedding_cache WHERE provider = ? AND model = ? AND hash = ?').pluck();
    return (hash) => get.get(provider, model, hash) as Buffer | undefined;
  }
  const id = embedderId(db, provider, model, false);
  if (id === null) return () => undefined;
  const get = db.prepare('SELECT embedding FROM embedding_cache WHERE embedder = ? AND hash = ?').pluck();
  return (hash) => get.get(id, cacheKey(hash)) as Buffer | undefined;
}

/** A cache entry's time of use as stored (`used`: seconds, 4 bytes where milliseconds took 6). */
export function usedStamp(nowMs: number): number {
  return Math.floor(nowMs / 1000);
}

/**
 * The join of `chunks c` to its float copy `embedding_cache e` in the file's layout, with the
 * arguments it takes: by `embed_id` (schema 11), else by the index embedder's text key.
 */
export function floatJoin(db: Db, provider: string, model: string): { on: string; args: string[] } {
  return cacheLayout(db) === 'keyed'
    ? { on: 'e.id = c.embed_id', args: [] }
    : { on: 'e.provider = ? AND e.model = ? AND e.hash = c.embed_hash', args: [provider, model] };
}
