/**
 * Turn an index file built by this Cairn into one as the previous schema had it (tables,
 * columns and the identity's schema marker), to test what an upgrade does with a real older
 * index. Keep it in step when SCHEMA_VERSION is bumped: it rewrites the one step back.
 */
import crypto from 'node:crypto';
import { openDatabase } from '../../electron/engine/index/db';
import { readIdentity, SCHEMA_VERSION, writeMeta } from '../../electron/engine/index/schema';
import { unpackText } from '../../electron/engine/index/chunk-text';

/** The schema this helper rewrites to. */
export const PREVIOUS_SCHEMA = 10;

/** Rewrite `indexFile` (current schema) as schema {@link PREVIOUS_SCHEMA} wrote it. */
export function rewriteAsPreviousSchema(indexFile: string): void {
  const { db } = openDatabase(indexFile, { mustExist: true });
  try {
    const id = readIdentity(db);
    if (!id || id.schema !== SCHEMA_VERSION) throw new Error(`${indexFile}: not an index of schema ${SCHEMA_VERSION}`);
    db.transaction(() => {
      // Schema 10 keyed the float copies by (provider, model, hex hash) in every row …
      db.exec(`
        CREATE TABLE embedding_cache_10 (
          provider TEXT NOT NULL, model TEXT NOT NULL, hash TEXT NOT NULL,
          dims INTEGER NOT NULL, embedding BLOB NOT NULL, updated_at INTEGER NOT NULL,
          PRIMARY KEY (provider, model, hash)
        );
        INSERT INTO embedding_cache_10
          SELECT d.provider, d.model, lower(hex(e.hash)), length(e.embedding) / 2, e.embedding, e.used * 1000
          FROM embedding_cache e JOIN embedders d ON d.id = e.embedder;
        ALTER TABLE chunks ADD COLUMN embed_hash TEXT;
        UPDATE chunks SET embed_hash = (SELECT lower(hex(hash)) FROM embedding_cache e WHERE e.id = chunks.embed_id);
        ALTER TABLE chunks DROP COLUMN embed_id;
        DROP TABLE embedding_cache;
        DROP TABLE embedders;
        ALTER TABLE embedding_cache_10 RENAME TO embedding_cache;
        ALTER TABLE chunks ADD COLUMN hash TEXT NOT NULL DEFAULT '';
        ALTER TABLE chunks ADD COLUMN model TEXT;
      `);
      // … and each chunk's text hash and model name.
      const set = db.prepare('UPDATE chunks SET hash = ?, model = ? WHERE id = ?');
      for (const r of db.prepare('SELECT id, text FROM chunks').all() as { id: number; text: Buffer }[]) {
        set.run(crypto.createHash('sha256').update(unpackText(r.text)).digest('hex'), id.model, r.id);
      }
      writeMeta(db, 'identity', JSON.stringify({ ...id, schema: PREVIOUS_SCHEMA }));
    })();
  } finally {
    db.close();
  }
}
