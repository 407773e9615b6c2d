/**
 * KNN at 384 d with quantised vectors (issue 23 item 3): is a sqlite-vec 0.1.9 `int8[N]` or
 * `bit[N]` coarse KNN, re-scored exactly against the float vectors, cheaper than the float
 * KNN the vector side runs today (`vec0(embedding float[N], source text, day text)`)?
 *
 * N random unit vectors (a shared bias on the first 20 dims, so they are not isotropic) go
 * into three vec0 tables of the index's shape — float, int8 (`vec_quantize_int8(v, 'unit')`)
 * and bit (`vec_quantize_binary(v)`) — in one temp file. Queries are stored vectors plus a
 * little noise (each has true near neighbours). For every column type and oversample factor
 * it prints the CPU / wall per query of the coarse KNN alone and of coarse KNN + exact
 * re-score (the float blobs read back by rowid from a plain table), and the re-scored
 * top-k's recall against the exact float top-k.
 *
 *   node --import tsx bench/knn-quant.ts [count=100000] [queries=20]
 *
 * The file goes to a temp dir and is removed at the end.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { cpuMs, quantile } from './lib/stats';

const D = 384;
const K = 40; // maxResults 10 × candidateMultiplier 4: the vector side's usual limit

function unitRandom(): Float32Array {
  const v = new Float32Array(D);
  let n = 0;
  for (let i = 0; i < D; i++) {
    v[i] = Math.random() - 0.5 + (i < 20 ? 0.3 : 0);
    n += v[i]! * v[i]!;
  }
  const inv = 1 / Math.sqrt(n);
  for (let i = 0; i < D; i++) v[i]! *= inv;
  return v;
}

function l2(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < D; i++) {
    const d = a[i]! - b[i]!;
    s += d * d;
  }
  return s;
}

function main(): void {
  const count = Number(process.argv[2] ?? 100_000);
  const nq = Number(process.argv[3] ?? 20);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-knn-quant-'));
  const db = new Database(path.join(tmp, 'knn.sqlite'));
  sqliteVec.load(db);
  db.pragma('journal_mode = WAL');
  const kinds: { name: string; col: string; enc: string }[] = [
    { name: 'float', col: `float[${D}]`, enc: '?' },
    { name: 'int8', col: `int8[${D}]`, enc: "vec_quantize_int8(?, 'unit')" },
    { name: 'bit', col: `bit[${D}]`, enc: 'vec_quantize_binary(?)' },
  ];
  try {
    const t0 = performance.now();
    const ins = kinds.map((k) => {
      db.exec(`CREATE VIRTUAL TABLE v_${k.name} USING vec0(embedding ${k.col}, source text, day text)`);
      return db.prepare(`INSERT INTO v_${k.name}(rowid, embedding, source, day) VALUES (?, ${k.enc}, 'memory', '2024-01-01')`);
    });
    // The exact vectors as a plain rowid → blob table: what a re-score would read (a vec0
    // point lookup by rowid costs ≈ 0.5 ms a row, measured with this bench's first version).
    db.exec('CREATE TABLE v_blob (rowid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)');
    ins.push(db.prepare('INSERT INTO v_blob(rowid, embedding) VALUES (?, ?)'));
    const queries: Float32Array[] = [];
    const BATCH = 10_000;
    for (let start = 1; start <= count; start += BATCH) {
      db.transaction(() => {
        for (let i = start; i < Math.min(count + 1, start + BATCH); i++) {
          const v = unitRandom();
          if (queries.length < nq && Math.random() < (nq * 4) / count) {
            const q = v.map((x) => x + (Math.random() - 0.5) * 0.05);
            let n = 0;
            for (const x of q) n += x * x;
            queries.push(q.map((x) => x / Math.sqrt(n)));
          }
          const blob = Buffer.from(v.buffer);
          for (const s of ins) s.run(BigInt(i), blob);
        }
      })();
    }
    while (queries.length < nq) queries.push(unitRandom());
    const fileMb = fs.statSync(path.join(tmp, 'knn.sqlite')).size / 1e6;
    console.error(`inserted ${count} × 4 tables in ${((performance.now() - t0) / 1000).toFixed(0)} s, file ${fileMb.toFixed(0)} MB`);

    const fetch = db.prepare('SELECT embedding FROM v_blob WHERE rowid = ?').pluck();
    const exactStmt = db.prepare(`SELECT rowid FROM v_float WHERE embedding MATCH ? AND k = ? ORDER BY distance`).pluck();
    const exact = queries.map((q) => new Set((exactStmt.all(Buffer.from(q.buffer), K) as number[]).map(Number)));

    console.log(`\n| column | k fetched | coarse CPU p50 / p95 ms | + re-score CPU p50 / p95 ms | wall p50 / p95 ms | recall@${K} |`);
    console.log('|---|---|---|---|---|---|');
    for (const k of kinds) {
      const stmt = db.prepare(`SELECT rowid FROM v_${k.name} WHERE embedding MATCH ${k.enc} AND k = ? ORDER BY distance`).pluck();
      for (const over of k.name === 'float' ? [1] : k.name === 'int8' ? [1, 2] : [1, 2, 4, 8]) {
        const coarse: number[] = [], total: number[] = [], wall: number[] = [];
        let hit = 0;
        stmt.all(Buffer.from(queries[0]!.buffer), K * over); // warm
        queries.forEach((q, qi) => {
          const c0 = process.cpuUsage();
          const w0 = performance.now();
          const ids = (stmt.all(Buffer.from(q.buffer), K * over) as number[]).map(Number);
          coarse.push(cpuMs(process.cpuUsage(c0)));
          const top = k.name === 'float' ? ids : ids
            .map((id) => {
              const b = fetch.get(BigInt(id)) as Buffer;
              return { id, d: l2(new Float32Array(b.buffer, b.byteOffset, D), q) };
            })
            .sort((a, b) => a.d - b.d)
            .slice(0, K)
            .map((r) => r.id);
          total.push(cpuMs(process.cpuUsage(c0)));
          wall.push(performance.now() - w0);
          hit += top.filter((id) => exact[qi]!.has(id)).length;
        });
        const f = (xs: number[]) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)}`;
        console.log(`| ${k.name} | ${K * over} | ${f(coarse)} | ${f(total)} | ${f(wall)} | ${(hit / (K * nq)).toFixed(3)} |`);
      }
    }
    console.log(`\n${count} vectors × ${D} d, ${nq} queries, one file holding the three vec0 tables and the blob table: ${fileMb.toFixed(0)} MB`);
  } finally {
    db.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

main();
