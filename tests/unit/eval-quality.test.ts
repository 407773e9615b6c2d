/**
 * SPEC §7's quality bar on the committed eval set (bench/eval-data/): with the shipped
 * static embedder (potion-base-8M) and its default merge weights, hybrid search scores at least as well
 * as the better of its two sides (FTS-only and vector-only) on hit@6 and MRR. Ranking only —
 * deterministic, no timing. The full report (tiny GGUF, decay, MMR, weight sweep) is
 * `npm run eval`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPotionEmbedder, type PotionEmbedder } from '../../electron/engine/embed/potion';
import { EvalIndex, loadEvalSet, paraphraseViolations, type Metrics } from '../../testkit/eval-run';

let embedder: PotionEmbedder;
let index: EvalIndex;

beforeAll(async () => {
  embedder = await createPotionEmbedder();
  index = await EvalIndex.build(embedder);
}, 300_000);

afterAll(async () => {
  await index?.dispose();
  await embedder?.dispose();
});

describe('retrieval eval set', () => {
  it('has at least 60 known-answer queries of every kind, and paraphrases share no word with their answer', () => {
    const set = loadEvalSet();
    expect(set.queries.length).toBeGreaterThanOrEqual(60);
    expect(new Set(set.queries.map((q) => q.category))).toEqual(new Set(['paraphrase', 'exact', 'cjk', 'temporal', 'duplicates', 'plain']));
    expect(new Set(set.queries.map((q) => q.id)).size).toBe(set.queries.length);
    expect(paraphraseViolations(set)).toEqual([]);
  });
});

describe('quality bar (static embedder, default weights)', () => {
  let fts: Metrics;
  let vector: Metrics;
  let hybrid: Metrics;

  beforeAll(async () => {
    fts = await index.score({ vectors: false, hybrid: true });
    vector = await index.score({ vectors: true, hybrid: false });
    hybrid = await index.score({ vectors: true, hybrid: true });
  }, 300_000);

  it('hybrid hit@6 is at least the better of FTS-only and vector-only', () => {
    expect(hybrid.hit6).toBeGreaterThanOrEqual(Math.max(fts.hit6, vector.hit6));
  });

  it('hybrid MRR is at least the better of FTS-only and vector-only', () => {
    expect(hybrid.mrr).toBeGreaterThanOrEqual(Math.max(fts.mrr, vector.mrr));
  });

  it('each side answers what the other cannot: BM25 the exact tokens and CJK, vectors some paraphrases', () => {
    expect(fts.byCategory.exact.hit6).toBe(1);
    expect(fts.byCategory.cjk.hit6).toBe(1);
    expect(fts.byCategory.paraphrase.hit6).toBe(0);
    expect(vector.byCategory.paraphrase.hit6).toBeGreaterThan(0);
    expect(hybrid.byCategory.paraphrase.hit6).toBeGreaterThan(0);
    expect(hybrid.byCategory.cjk.hit6).toBe(1);
  });

  it('finds most paraphrases and keeps every exact and CJK answer (averaged GloVe found 60% of the paraphrases)', () => {
    expect(hybrid.byCategory.paraphrase.hit6).toBeGreaterThanOrEqual(0.8);
    expect(hybrid.byCategory.exact.hit6).toBe(1);
    expect(hybrid.hit6).toBeGreaterThanOrEqual(0.9);
  });
});
