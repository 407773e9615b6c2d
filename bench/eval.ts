/**
 * `npm run eval`: retrieval quality on the committed eval memory (bench/eval-data/, 65
 * known-answer queries over six months of notes). Reports hit@1, hit@6 and MRR@6 for
 * FTS-only, vector-only, hybrid, +decay, +MMR with the static embedder (potion-base-8M) and
 * the tiny test GGUF (testkit/tiny-gguf.ts), per category, a sweep of the merge weight, and
 * SPEC §7's quality bar (hybrid ≥ the better of its two sides, hit@6 and MRR, per embedder).
 * The set is split into a tuning and a test half (eval-run.ts splitEvalSet): the weight sweep
 * is shown on the tuning half, with the test half's hit@6 beside it.
 *
 *   node --import tsx bench/eval.ts            # static + tiny GGUF + the real all-MiniLM-L6-v2 (when fetched)
 *   node --import tsx bench/eval.ts --no-gguf  # static (+ real) only; --no-real leaves the real one out
 *   node --import tsx bench/eval.ts --locomo ../shared/eval/locomo-dev  # LoCoMo (eval-locomo.ts)
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createGgufEmbedder } from '../electron/engine/embed/gguf';
import { createPotionEmbedder } from '../electron/engine/embed/potion';
import type { Embedder } from '../electron/engine/embed/types';
import { DEFAULT_WEIGHTS } from '../electron/engine/search/score';
import { tinyGgufPath } from '../testkit/tiny-gguf';
import { CATEGORIES, EvalIndex, loadEvalSet, paraphraseViolations, type EvalConfig, type Metrics } from '../testkit/eval-run';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The converted real embedder from scripts/fetch-test-models.mjs, or null when not fetched (never downloads). */
function realEmbedderPath(): string | null {
  const r = spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/fetch-test-models.mjs', import.meta.url)), '--json', '--no-fetch'], { encoding: 'utf8' });
  return r.status === 0 ? ((JSON.parse(r.stdout) as { embedder: string | null }).embedder ?? null) : null;
}
const row = (name: string, m: Metrics) => `| ${name} | ${pct(m.hit1)} | ${pct(m.hit6)} | ${m.mrr.toFixed(3)} |`;

interface Side {
  label: string;
  index: EvalIndex;
  weights: { vector: number; text: number };
}

async function main(): Promise<void> {
  if (process.argv.includes('--locomo')) {
    const { locomoMain } = await import('./eval-locomo');
    process.exitCode = await locomoMain(process.argv.slice(2));
    return;
  }
  const set = loadEvalSet();
  const bad = paraphraseViolations(set);
  console.log(`Eval set: ${set.queries.length} queries, now = ${set.now.toISOString()}; maxResults 6, minScore 0.`);
  if (bad.length) console.log(`\n**Paraphrase check failed** (query words found in the answer): ${bad.join('; ')}`);

  const embedders: { label: string; make: () => Promise<Embedder> }[] = [
    { label: 'static', make: () => createPotionEmbedder() },
  ];
  if (!process.argv.includes('--no-gguf')) {
    embedders.push({ label: 'tiny GGUF', make: async () => createGgufEmbedder({ modelPath: await tinyGgufPath(), threads: 1 }) });
  }
  // The real sentence embedder (all-MiniLM-L6-v2 GGUF) when scripts/fetch-test-models.mjs has fetched it.
  const real = process.argv.includes('--no-real') ? null : realEmbedderPath();
  if (real) embedders.push({ label: 'MiniLM-L6', make: () => createGgufEmbedder({ modelPath: real, threads: 1 }) });

  const sides: Side[] = [];
  for (const e of embedders) {
    const embedder = await e.make();
    const weights = DEFAULT_WEIGHTS[embedder.provider] ?? DEFAULT_WEIGHTS.default!;
    sides.push({ label: e.label, index: await EvalIndex.build(embedder), weights });
  }

  const fts = await sides[0]!.index.score({ vectors: false, hybrid: true });
  const table: [string, Metrics][] = [['FTS-only (BM25)', fts]];
  const bar: string[] = [];
  const sweeps: [string, [number, Metrics, Metrics][]][] = [];
  const parts: string[] = [`| FTS-only | ${pct((await sides[0]!.index.score({ vectors: false, hybrid: true }, 'tune')).hit6)} | ${pct((await sides[0]!.index.score({ vectors: false, hybrid: true }, 'test')).hit6)} |`];
  for (const s of sides) {
    const run = (c: Omit<EvalConfig, 'vectors'>) => s.index.score({ vectors: true, ...c });
    const vec = await run({ hybrid: false });
    const hyb = await run({ hybrid: true });
    const w = `${s.weights.vector}/${s.weights.text}`;
    table.push(
      [`vector-only, ${s.label}`, vec],
      [`hybrid ${w}, ${s.label}`, hyb],
      [`hybrid + decay, ${s.label}`, await run({ hybrid: true, decay: true })],
      [`hybrid + MMR, ${s.label}`, await run({ hybrid: true, mmr: true })],
      [`hybrid + decay + MMR, ${s.label}`, await run({ hybrid: true, decay: true, mmr: true })],
    );
    const okHit = hyb.hit6 >= Math.max(fts.hit6, vec.hit6);
    const okMrr = hyb.mrr >= Math.max(fts.mrr, vec.mrr) - 1e-9;
    bar.push(
      `- ${s.label} (default weights vector ${w}): hit@6 ${pct(hyb.hit6)} vs best side ${pct(Math.max(fts.hit6, vec.hit6))}; MRR ${hyb.mrr.toFixed(3)} vs ${Math.max(fts.mrr, vec.mrr).toFixed(3)} → ${okHit && okMrr ? 'holds' : '**fails**'}`,
    );
    const sweep: [number, Metrics, Metrics][] = [];
    for (let i = 0; i <= 10; i++) {
      const c = { vectors: true, hybrid: true, vectorWeight: i / 10 };
      sweep.push([i / 10, await s.index.score(c, 'tune'), await s.index.score(c, 'test')]);
    }
    sweeps.push([s.label, sweep]);
    parts.push(`| ${s.label} (default ${w}) | ${pct((await s.index.score({ vectors: true, hybrid: true }, 'tune')).hit6)} | ${pct((await s.index.score({ vectors: true, hybrid: true }, 'test')).hit6)} |`);
  }

  console.log('\n| configuration | hit@1 | hit@6 | MRR@6 |');
  console.log('|---|---|---|---|');
  for (const [name, m] of table) console.log(row(name, m));

  console.log(`\nhit@6 by category (n = ${CATEGORIES.map((c) => `${c} ${fts.byCategory[c].n}`).join(', ')}):\n`);
  console.log(`| configuration | ${CATEGORIES.join(' | ')} |`);
  console.log(`|---|${CATEGORIES.map(() => '---').join('|')}|`);
  for (const [name, m] of table) console.log(`| ${name} | ${CATEGORIES.map((c) => pct(m.byCategory[c].hit6)).join(' | ')} |`);

  console.log('\nMRR@6 by category (the temporal asks are about rank 1: both the old and the new decision are usually in the top 6):\n');
  console.log(`| configuration | ${CATEGORIES.join(' | ')} |`);
  console.log(`|---|${CATEGORIES.map(() => '---').join('|')}|`);
  for (const [name, m] of table) console.log(`| ${name} | ${CATEGORIES.map((c) => m.byCategory[c].mrr.toFixed(3)).join(' | ')} |`);

  console.log('\nQuality bar (SPEC §7: hybrid ≥ the better side, hit@6 and MRR):\n');
  for (const b of bar) console.log(b);

  console.log('\nhit@6 on the two halves (tune: choose weights there; test: check them there):\n');
  console.log('| configuration | tune | test |\n|---|---|---|');
  for (const p of parts) console.log(p);
  for (const [label, sweep] of sweeps) {
    console.log(`\nMerge-weight sweep, ${label} (vectorWeight; textWeight = 1 − it), tuning half, then the test half's hit@6:\n`);
    console.log('| vectorWeight | hit@1 | hit@6 | MRR@6 | paraphrase | exact | cjk | test hit@6 |');
    console.log('|---|---|---|---|---|---|---|---|');
    for (const [w, m, t] of sweep) console.log(`${row(w.toFixed(1), m)} ${(['paraphrase', 'exact', 'cjk'] as const).map((c) => pct(m.byCategory[c].hit6)).join(' | ')} | ${pct(t.hit6)} |`);
  }
  console.log(`\nMissed at 6 by FTS-only: ${fts.missed.join(', ') || 'none'}`);
  for (const [name, m] of table.slice(1)) if (/^hybrid \d/.test(name)) console.log(`Missed at 6 by ${name}: ${m.missed.join(', ') || 'none'}`);

  for (const s of sides) {
    await s.index.embedder?.dispose();
    await s.index.dispose();
  }
}

// Exit explicitly (the index's worker threads would keep the process alive), but only once
// stdout has drained: the tables are long and usually piped or redirected.
main().then(
  () => process.stdout.write('', () => process.exit(process.exitCode ?? 0)),
  (err: Error) => {
    console.error(err.stack ?? err.message);
    process.exit(1);
  },
);
