/**
 * The keyword side's early stop at scale (issue 33, search/lexical.ts), paired in one
 * process: on an index kept by `bench/search-lines.ts <size> off keep`, every query of the
 * latency set runs with the keyword side as it was (every match of the kept terms ranked)
 * and as it is now (a MATCH over the postings budget ranked over its newest tier, plus a
 * second stage scoring the vector side's candidates), alternating which goes first. Prints
 * hybrid p50 / p95 wall (CPU) of both through the running engine's path (KNN worker up, its
 * in-memory copy loaded), per query the keyword side's CPU both ways and how many of the
 * top 6 results agree, and the FTS tables' sizes.
 *
 *   node --import tsx bench/keyword-stop.ts 1m <index file kept by search-lines.ts> [rounds]
 */
import fs from 'node:fs';
import os from 'node:os';
import { loadConfig } from '../electron/engine/config/load';
import { openDatabase } from '../electron/engine/index/db';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { knnCopyLoaded, knnWorkerReady, searchIndex } from '../electron/engine/search/index-search';
import { keywordPlan, vec0Candidates } from '../electron/engine/search/candidates';
import { EARLY_STOP, keywordSide } from '../electron/engine/search/lexical';
import { FakeEmbedder } from '../testkit/fake-embedder';
import { ensureCorpus, type CorpusSize } from './corpus';
import { LATENCY_QUERIES } from './lib/search-child';
import { quantile, timed, timedSync } from './lib/stats';

type Db = ReturnType<typeof openDatabase>['db'];

/** The keyword side as it was: no MATCH is ever early-stopped. */
const OLD = { postings: Number.POSITIVE_INFINITY, tier: EARLY_STOP.tier };
const NEW = { ...EARLY_STOP };

/** Switch the engine's early stop (a module constant, read per search). */
function use(stop: typeof NEW): void {
  EARLY_STOP.postings = stop.postings;
  EARLY_STOP.tier = stop.tier;
}

/** FTS5 table bytes (dbstat), the table and its shadow tables together, in MB. */
function ftsSizes(db: Db): string {
  const rows = db.prepare("SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE 'chunks_fts%' GROUP BY name").all() as { name: string; bytes: number }[];
  const by = new Map<string, number>();
  for (const r of rows) {
    const t = r.name.startsWith('chunks_fts_stem') ? 'chunks_fts_stem' : 'chunks_fts';
    by.set(t, (by.get(t) ?? 0) + r.bytes);
  }
  return [...by].map(([t, b]) => `${t} ${(b / 1e6).toFixed(0)} MB`).join(', ');
}

const f1 = (x: number) => x.toFixed(1);
const p = (xs: number[]) => `${f1(quantile(xs, 0.5))} / ${f1(quantile(xs, 0.95))}`;

async function main(): Promise<void> {
  const size = (process.argv[2] ?? '1m') as CorpusSize;
  const indexFile = process.argv[3];
  const rounds = Number(process.argv[4] ?? 5);
  if (!indexFile || !fs.existsSync(indexFile)) throw new Error('usage: keyword-stop.ts <size> <index file kept by bench/search-lines.ts <size> off keep> [rounds]');
  const corpus = await ensureCorpus(size, { log: (m) => console.error(m) });
  const settings = loadConfig(corpus.dir).config.memory.search;
  settings.query.hybrid.lineVectors = 'off';
  const embedder = new FakeEmbedder({ provider: 'local', model: 'hash-384', dims: 384 });
  const idx = MemoryIndex.open({
    agentId: 'main',
    indexFile,
    roots: { workspace: corpus.workspace, sessionsDir: corpus.sessionsDir, extraPaths: [], sources: settings.sources },
    settings,
    embedder,
  });
  const { db } = openDatabase(indexFile, { readonly: true });
  try {
    const search = (q: string) => searchIndex(idx, { query: q });
    await search('warm up');
    await search('warm up again');
    await knnWorkerReady(idx);
    const loaded = await knnCopyLoaded(idx);
    const sides = { old: { wall: [] as number[], cpu: [] as number[] }, new: { wall: [] as number[], cpu: [] as number[] } };
    const tops = new Map<string, { old: string[]; new: string[] }>();
    for (const q of LATENCY_QUERIES) {
      for (const s of [OLD, NEW]) {
        use(s);
        await search(q); // warm-up
      }
    }
    for (let r = 0; r < rounds; r++) {
      for (const [i, q] of LATENCY_QUERIES.entries()) {
        const order = (r + i) % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const);
        for (const which of order) {
          use(which === 'old' ? OLD : NEW);
          const t = await timed(() => search(q));
          sides[which].wall.push(t.wallMs);
          sides[which].cpu.push(t.cpuMs);
          if (t.value.mode !== 'hybrid' || t.value.warnings.some((w) => w.includes('failed'))) throw new Error(`${which} "${q}": ${t.value.mode}, ${t.value.warnings.join('; ')}`);
          const top = t.value.results.map((x) => `${x.path}#${x.startLine}`);
          tops.set(q, { ...(tops.get(q) ?? { old: [], new: [] }), [which]: top });
        }
      }
    }
    use(NEW);
    const load = os.loadavg()[0]!.toFixed(1);
    const chunks = db.prepare('SELECT COUNT(*) FROM chunks').pluck().get() as number;
    console.log(`Keyword early stop at ${size}: ${chunks} chunks × 384 d, no line vectors; ${rounds} rounds × ${LATENCY_QUERIES.length} queries, old and new alternated; KNN worker ${loaded ? 'copy loaded' : 'on vec0'}; load average ${load} at the end. ms wall p50 / p95 (CPU p50 / p95):\n`);
    console.log('| keyword side | hybrid search |\n|---|---|');
    for (const w of ['old', 'new'] as const) console.log(`| ${w === 'old' ? 'every match ranked (before)' : `early stop (postings > ${NEW.postings}: newest ${NEW.tier} + vector candidates)`} | ${p(sides[w].wall)} (${p(sides[w].cpu)}) |`);

    // Per query: the kept terms' postings, the keyword side alone (CPU, median of 3) both
    // ways — the new one with its second stage over the vector side's candidates — and how
    // many of the top results agree.
    const limit = settings.query.maxResults * settings.query.hybrid.candidateMultiplier;
    const filter = { sources: settings.sources };
    const h = settings.query.hybrid;
    const med = (fn: () => unknown) => quantile([0, 1, 2].map(() => timedSync(fn).cpuMs), 0.5);
    console.log('\n| query | postings (exact) | keyword side before ms | now ms (tier + 2nd stage) | top 6 same |\n|---|---:|---:|---:|---:|');
    let same = 0;
    for (const q of LATENCY_QUERIES) {
      const [v] = await embedder.embed([q], { kind: 'query' });
      const ids = v && v.some((x) => x !== 0) ? vec0Candidates(db, v, limit, filter).map((c) => c.id) : [];
      const lex = { calibration: h.calibration, stemWeight: h.stemWeight };
      const before = med(() => keywordSide(db, q, limit, filter, { ...lex, earlyStop: OLD }));
      const now = med(() => {
        const s = keywordSide(db, q, limit, filter, { ...lex, earlyStop: NEW });
        return s.rescore?.(ids);
      });
      const t = tops.get(q)!;
      const agree = t.new.filter((x) => t.old.includes(x)).length;
      if (agree === t.old.length && t.new.length === t.old.length) same++;
      console.log(`| ${q} | ${keywordPlan(db, q)?.postings ?? 0} | ${f1(before)} | ${f1(now)} | ${agree}/${t.old.length} |`);
    }
    console.log(`\n${same} of ${LATENCY_QUERIES.length} queries return the same top results both ways.`);
    console.log(`FTS tables (dbstat): ${ftsSizes(db)}; index file ${(fs.statSync(indexFile).size / 1e6).toFixed(0)} MB.`);
  } finally {
    db.close();
    await idx.dispose();
  }
}

await main();
