/**
 * Scores of the hybrid merge (SPEC §7): BM25 rank → 0..1, vector distance → score, and the
 * merge weights (explicit config wins; otherwise the default measured for the embedder).
 */
import type { MemorySearchSettings } from '../config/schema';

/**
 * FTS5 `bm25()` → 0..1. Matches have negative ranks (more negative = better), so for
 * rank < 0 the score is `r/(1+r)` with `r = −rank` (monotone, → 1 for strong matches);
 * otherwise `1/(1+rank)` (rank 0 → 1, rank 1 → 0.5).
 */
export function bm25RankToScore(rank: number): number {
  if (!Number.isFinite(rank)) return 0;
  if (rank < 0) {
    const r = -rank;
    return r / (1 + r);
  }
  return 1 / (1 + rank);
}

/** `1 − cosine distance`, clamped to 0..1. */
export function vectorScore(distance: number): number {
  const s = 1 - distance;
  return Math.max(0, Math.min(1, s));
}

/**
 * Rank → score calibration `relative` of the keyword side: each candidate's share of the
 * best candidate's BM25 rank (1 for the best). BM25's absolute map collapses on a tiny
 * memory (IDF ≈ 0 with two notes: an exact match scored 0.000) and saturates on a big one
 * (every decent match ≈ 0.9, so the weaker vector side decided the order); the ratio keeps
 * BM25's own spacing in both cases.
 */
export function relativeBm25<T extends { score: number; raw: number }>(cands: readonly T[]): T[] {
  if (cands.length === 0) return [];
  // bm25() is negative for a match (more negative = better).
  const best = Math.min(...cands.map((c) => c.raw));
  return cands.map((c) => ({ ...c, score: best < 0 ? Math.max(0, Math.min(1, c.raw / best)) : 1 }));
}

export interface MergeWeights {
  vector: number;
  text: number;
}

/**
 * Default weights per embedder provider. Real embedding models: 0.7/0.3 (compat); the
 * measured ones below (see docs/benchmarks.md for the measurements).
 */
export const DEFAULT_WEIGHTS: Record<string, MergeWeights> = {
  // The shipped static embedder, potion-base-8M (docs/benchmarks.md, "potion-base-8M"):
  // LoCoMo turn recall peaks at 0.5 (0.872; 0.869 at 0.4, 0.858 at 0.6, 0.861 at 0.2),
  // and the committed eval's tuning half is flat at hit@6 91.2% from 0.2 to 0.7 with its
  // best MRR (0.785) from 0.4 to 0.7. Averaged GloVe wanted 0.2: its vector side was weak.
  static: { vector: 0.5, text: 0.5 },
  // Local GGUF models, measured with all-MiniLM-L6-v2 (docs/benchmarks.md): with the
  // stemmed keyword side and line vectors LoCoMo turn recall peaks at 0.4 (0.852; 0.851 at
  // 0.5, 0.822 at 0.7) and 0.4 keeps lines/query under 64 (63.8 vs 64.1); the committed eval
  // is flat from 0.1 to 0.8. Remote models are unmeasured here and keep the compat 0.7/0.3.
  local: { vector: 0.4, text: 0.6 },
  default: { vector: 0.7, text: 0.3 },
};

/** The merge weights, normalised to sum 1. Explicit config wins over the per-embedder default. */
export function resolveWeights(hybrid: MemorySearchSettings['query']['hybrid'], provider: string | null): MergeWeights {
  const base = (provider && DEFAULT_WEIGHTS[provider]) || DEFAULT_WEIGHTS.default!;
  let vector = hybrid.vectorWeight;
  let text = hybrid.textWeight;
  // Only one given: the other is its complement.
  if (vector === undefined && text === undefined) {
    vector = base.vector;
    text = base.text;
  } else if (vector === undefined) vector = Math.max(0, 1 - (text ?? 0));
  else if (text === undefined) text = Math.max(0, 1 - vector);
  const sum = (vector ?? 0) + (text ?? 0);
  if (!(sum > 0)) return { vector: 0.5, text: 0.5 };
  return { vector: (vector ?? 0) / sum, text: (text ?? 0) / sum };
}
