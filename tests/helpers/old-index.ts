/**
 * Turn an index file built by this Cairn into one as the previous schema had it (tables,
 * columns and the identity's schema marker), to test what an upgrade does with a real older
 * index. Keep it in step when SCHEMA_VERSION is bumped: it rewrites the one step back.
 */
import { openDatabase } from '../../electron/engine/index/db';
import { readIdentity, SCHEMA_VERSION, writeMeta } from '../../electron/engine/index/schema';

/** The schema this helper rewrites to. */
export const PREVIOUS_SCHEMA = 8;

/** Rewrite `indexFile` (current schema) as schema {@link PREVIOUS_SCHEMA} wrote it. */
export function rewriteAsPreviousSchema(indexFile: string): void {
  const { db } = openDatabase(indexFile, { mustExist: true });
  try {
    const id = readIdentity(db);
    if (!id || id.schema !== SCHEMA_VERSION) throw new Error(`${indexFile}: not an index of schema ${SCHEMA_VERSION}`);
    db.transaction(() => {
      // Schema 8 had no `added` column (ids rose with each write, chunkIdHigh in meta).
      db.exec('DROP INDEX chunks_added; ALTER TABLE chunks DROP COLUMN added');
      db.exec("DELETE FROM meta WHERE key IN ('chunkAdded', 'generation')");
      writeMeta(db, 'chunkIdHigh', String(db.prepare('SELECT COALESCE(MAX(id), 0) FROM chunks').pluck().get()));
      writeMeta(db, 'identity', JSON.stringify({ ...id, schema: PREVIOUS_SCHEMA }));
    })();
  } finally {
    db.close();
  }
}
