/**
 * Index size by table before and after schema 8 (each vector kept once), on one built index:
 * prints SQLite's `dbstat` per table of the index as it is, then of a copy rewritten to the
 * layout before it — `chunks_vec` as `vec0(float[dims])` of the unit vectors, no
 * `chunks.embed_hash` — both vacuumed, so both hold the same chunks and the same cache.
 *
 *   node --import tsx bench/index-layout.ts <index.sqlite> [tmp dir for the copy]
 *
 * The copy is removed at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../electron/engine/index/db';
import { readIdentity } from '../electron/engine/index/schema';
import { blobVec, unitVec, vecBlob } from '../electron/engine/index/store';
import { floatJoin } from '../electron/engine/index/vector-cache';

/** MB per table with its shadow tables and indexes, biggest first. */
function tableSizes(db: Db): Map<string, number> {
  const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as { name: string; bytes: number }[];
  const by = new Map<string, number>();
  for (const r of rows) {
    let group = r.name.replace(/^sqlite_autoindex_/, '').replace(/_(\d+)$/, '').replace(/^(chunks_vec|lines_vec|chunks_fts_stem|chunks_fts)_.*/, '$1');
    if (/^chunks_(path|day|filter)$/.test(group)) group = 'indexes on chunks';
    by.set(group, (by.get(group) ?? 0) + r.bytes / 1e6);
  }
  return by;
}

function main(): void {
  const file = process.argv[2];
  if (!file || !fs.existsSync(file)) throw new Error('usage: bench/index-layout.ts <index.sqlite> [tmp dir]');
  const tmp = fs.mkdtempSync(path.join(process.argv[3] ?? os.tmpdir(), 'cairn-index-layout-'));
  const copy = path.join(tmp, 'old.sqlite');
  try {
    const { db } = openDatabase(file, { readonly: true });
    const id = readIdentity(db)!;
    const chunks = db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number;
    const asBuilt = tableSizes(db);
    db.prepare('VACUUM INTO ?').run(copy);
    db.close();

    const t0 = performance.now();
    const old = openDatabase(copy).db;
    // Both sides vacuumed, so that free pages of the build do not count.
    const after = tableSizes(old);
    // Read in pages (a connection cannot write while it iterates).
    const join = floatJoin(old, id.provider!, id.model!);
    const page = old.prepare(`SELECT c.id, c.source, c.day, e.embedding FROM chunks c JOIN embedding_cache e ON ${join.on} WHERE c.id > ? ORDER BY c.id LIMIT 20000`).raw();
    old.exec(`DROP TABLE chunks_vec; CREATE VIRTUAL TABLE chunks_vec_old USING vec0(embedding float[${id.dims}], source text, day text)`);
    const ins = old.prepare('INSERT INTO chunks_vec_old (rowid, embedding, source, day) VALUES (?, ?, ?, ?)');
    for (let last = 0; ; ) {
      const rows = page.all(...join.args, last) as [number, string, string | null, Buffer][];
      if (rows.length === 0) break;
      old.transaction(() => {
        for (const [cid, source, day, blob] of rows) ins.run(BigInt(cid), vecBlob(unitVec(blobVec(blob))), source, day);
      })();
      last = rows[rows.length - 1]![0];
    }
    old.exec(`ALTER TABLE chunks DROP COLUMN ${join.args.length ? 'embed_hash' : 'embed_id'}`);
    old.exec('VACUUM');
    const before = tableSizes(old);
    old.close();
    console.error(`old layout rebuilt in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    const names = [...new Set([...before.keys(), ...after.keys()])].filter((n) => (before.get(n) ?? 0) + (after.get(n) ?? 0) >= 1);
    names.sort((a, b) => (before.get(b) ?? 0) - (before.get(a) ?? 0));
    const f = (x: number | undefined) => (x ?? 0).toFixed(0);
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    console.log(`${chunks.toLocaleString('en')} chunks × ${id.dims} d (${id.provider}/${id.model}); MB by table (dbstat):\n`);
    console.log('| table | before (float chunks_vec) | after (int8 chunks_vec, floats once) |\n|---|---|---|');
    for (const n of names) console.log(`| ${n} | ${f(before.get(n))} | ${f(after.get(n))} |`);
    console.log(`| **total** | **${f(sum(before))}** | **${f(sum(after))}** |`);
    console.log(`\nThe index as built (not vacuumed): ${f(sum(asBuilt))} MB, chunks_vec ${f(asBuilt.get('chunks_vec'))} MB.`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main();
