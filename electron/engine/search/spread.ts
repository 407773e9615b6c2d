/**
 * Spreading the top results over distinct files (multi-hop): a question whose
 * answer is told in several sessions ("what did X do in May and June?") needs one hit per
 * session, while BM25 tends to fill the k slots with neighbouring chunks of the one file
 * that repeats the query's words. Each slot still goes to the best remaining result, unless
 * that result's file is already shown and a result from a new file scores at least
 * `ratio` × as much: close scores go to breadth, a clearly better hit keeps its place.
 */

/**
 * The first `k` items of `items` (sorted best first) in spread order; `ratio` ≥ 1 = plain
 * score order. Items past `k` keep their order after them.
 */
export function spreadOrder<T extends { score: number; path: string }>(items: readonly T[], k: number, ratio: number): T[] {
  if (!(ratio < 1) || items.length <= 1) return [...items];
  const left = [...items];
  const out: T[] = [];
  const shown = new Set<string>();
  while (out.length < k && left.length > 0) {
    let pick = 0;
    const best = left[0]!;
    if (shown.has(best.path)) {
      const fresh = left.findIndex((x) => !shown.has(x.path));
      if (fresh > 0 && left[fresh]!.score >= ratio * best.score) pick = fresh;
    }
    const [it] = left.splice(pick, 1);
    out.push(it!);
    shown.add(it!.path);
  }
  return [...out, ...left];
}
