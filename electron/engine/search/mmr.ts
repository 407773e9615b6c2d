/**
 * MMR re-ranking (SPEC §7): pick greedily by `λ·relevance − (1−λ)·maxSimilarity` to the
 * items already picked, so near-duplicate daily notes do not fill every slot. Similarity is
 * Jaccard over word tokens (CJK as unigrams + bigrams). Relevance is normalised to 0..1 so
 * λ means the same whatever the score scale. λ = 1 is pure relevance order.
 */
import { similarityTokens } from '../../../shared/text/tokens';

export interface MmrItem {
  score: number;
  text: string;
}

/** Jaccard similarity of two token sets (1 for two empty sets). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (big.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/**
 * Reorder `items` (any order) by MMR; returns indices into `items` in pick order. Ties go
 * to the higher relevance, then to the earlier item (stable).
 */
export function mmrOrder(items: readonly MmrItem[], lambda: number): number[] {
  if (items.length === 0) return [];
  const tokens = items.map((it) => new Set(similarityTokens(it.text)));
  let max = -Infinity;
  let min = Infinity;
  for (const it of items) {
    max = Math.max(max, it.score);
    min = Math.min(min, it.score);
  }
  const range = max - min;
  const rel = items.map((it) => (range > 0 ? (it.score - min) / range : 1));
  const picked: number[] = [];
  const maxSim = new Array<number>(items.length).fill(0);
  const left = new Set(items.map((_, i) => i));
  while (left.size > 0) {
    let best = -1;
    let bestVal = -Infinity;
    for (const i of left) {
      const val = lambda * rel[i]! - (1 - lambda) * maxSim[i]!;
      const better =
        val > bestVal + 1e-12 ||
        (Math.abs(val - bestVal) <= 1e-12 && (items[i]!.score > items[best]!.score || (items[i]!.score === items[best]!.score && i < best)));
      if (best === -1 || better) {
        best = i;
        bestVal = val;
      }
    }
    picked.push(best);
    left.delete(best);
    for (const i of left) maxSim[i] = Math.max(maxSim[i]!, jaccard(tokens[i]!, tokens[best]!));
  }
  return picked;
}
