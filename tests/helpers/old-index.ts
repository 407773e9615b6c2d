/**
 * Turn an index file built by this Cairn into one as the previous schema had it (tables,
 * columns and the identity's schema marker), to test what an upgrade does with a real older
 * index. Keep it in step when SCHEMA_VERSION is bumped: it rewrites the one step back.
 */
import { openDatabase } from '../../electron/engine/index/db';
import { readIdentity, SCHEMA_VERSION, writeMeta } from '../../electron/engine/index/schema';
import { blobVec, vecBlob } from '../../electron/engine/index/store';
import { unpackText } from '../../electron/engine/index/chunk-text';

/** The schema this helper rewrites to. */
export const PREVIOUS_SCHEMA = 9;

/** Rewrite `indexFile` (current schema) as schema {@link PREVIOUS_SCHEMA} wrote it. */
export function rewriteAsPreviousSchema(indexFile: string): void {
  const { db } = openDatabase(indexFile, { mustExist: true });
  try {
    const id = readIdentity(db);
    if (!id || id.schema !== SCHEMA_VERSION) throw new Error(`${indexFile}: not an index of schema ${SCHEMA_VERSION}`);
    db.transaction(() => {
      // Schema 9 kept the chunk text as TEXT …
      const setText = db.prepare('UPDATE chunks SET text = ? WHERE id = ?');
      for (const r of db.prepare('SELECT id, text FROM chunks').all() as { id: number; text: Buffer }[]) setText.run(unpackText(r.text), r.id);
      // … and its float copies as float32.
      const put = db.prepare('UPDATE embedding_cache SET embedding = ? WHERE rowid = ?');
      for (const r of db.prepare('SELECT rowid, embedding FROM embedding_cache').all() as { rowid: number; embedding: Buffer }[]) put.run(vecBlob(blobVec(r.embedding)), r.rowid);
      writeMeta(db, 'identity', JSON.stringify({ ...id, schema: PREVIOUS_SCHEMA }));
    })();
  } finally {
    db.close();
  }
}
