/**
 * The cost of the true stem scores of exact matches older than the stopped stemmed tier
 * (issue 38, defect 8; search/lexical.ts `stemWithExact`), on a synthetic FTS index: `n`
 * chunks of 60 random words, the stem "deploy" in 80% of them ("deployed", "deploying") and
 * the exact word "deploy" in 0.25%, spread over all ages — the shape of "deploy staging" in
 * the 1M bench corpus (exact 1,165, stem 849,718). Prints a Markdown table of CPU medians:
 * the keyword side as it is, the stemmed-table walk it adds, and every match ranked.
 *
 *   node --import tsx bench/keyword-stem-walk.ts [n = 1000000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../electron/engine/index/db';
import { createBaseSchema } from '../electron/engine/index/schema';
import { ftsScoreIds, keywordPlan } from '../electron/engine/search/candidates';
import { keywordSide } from '../electron/engine/search/lexical';

const n = Number(process.argv[2] ?? 1_000_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-stem-walk-'));
const { db } = openDatabase(path.join(dir, 'index.sqlite'));
createBaseSchema(db);
const words = 'alpha beta gamma delta server backup garden kayak budget review trip lake notes plan team call'.split(' ');
const exact = db.prepare('INSERT INTO chunks_fts(rowid, body) VALUES (?, ?)');
const stem = db.prepare('INSERT INTO chunks_fts_stem(rowid, body) VALUES (?, ?)');
let seed = 1;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
db.transaction(() => {
  for (let i = 1; i <= n; i++) {
    const w = Array.from({ length: 60 }, () => words[Math.floor(rnd() * words.length)]!);
    if (i % 5 !== 0) w.push(rnd() < 0.5 ? 'deployed' : 'deploying');
    if (i % 400 === 7) w.push('deploy');
    const text = w.join(' ');
    exact.run(i, text);
    stem.run(i, text);
  }
})();

const cpu = (fn: () => unknown) => {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const filter = { sources: ['memory' as const, 'sessions' as const] }; // no filter: every source
const o = { calibration: 'absolute' as const, stemWeight: 0.5 };
const match = keywordPlan(db, 'deploy')!.match;
const ids = keywordSide(db, 'deploy', 24, filter, o).candidates.filter((c) => !c.stemOnly).map((c) => c.id);
const now: number[] = [];
const walk: number[] = [];
const all: number[] = [];
for (let r = 0; r < 7; r++) {
  now.push(cpu(() => keywordSide(db, 'deploy', 24, filter, o)));
  walk.push(cpu(() => ftsScoreIds(db, 'chunks_fts_stem', match, ids)));
  all.push(cpu(() => keywordSide(db, 'deploy', 24, filter, { ...o, earlyStop: { postings: Number.POSITIVE_INFINITY, tier: 2_000 } })));
}
db.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`| chunks | exact / stem matches | keyword side now (ms CPU) | of which the stem walk | before it (≈) | every match ranked |`);
console.log(`|---:|---:|---:|---:|---:|---:|`);
const [a, b, c] = [median(now), median(walk), median(all)];
console.log(`| ${n.toLocaleString('en-US')} | ${(n / 400).toLocaleString('en-US')} / ${(n * 0.8).toLocaleString('en-US')} | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(a - b).toFixed(1)} | ${c.toFixed(1)} |`);
