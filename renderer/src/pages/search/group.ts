/**
 * Near-identical hits folded together: daily notes often repeat the same line
 * ("- Standing: backups run at 02:30"), which filled the first page with one fact. Hits whose
 * snippets are the same once dates, numbers, case and spacing are ignored become one group:
 * the best-scored hit leads, the others are listed under it.
 */
import type { SearchResult } from '../../../../shared/types/search';

export interface ResultGroup {
  lead: SearchResult;
  similar: SearchResult[];
}

function key(r: SearchResult): string {
  return r.snippet
    .toLowerCase()
    .replace(/\d{4}-\d{2}-\d{2}/g, '')
    .replace(/\d+/g, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 240);
}

/** Group `results` (already ranked) by near-identical snippet, keeping the ranking of the leads. */
export function groupSimilar(results: SearchResult[]): ResultGroup[] {
  const groups: ResultGroup[] = [];
  const byKey = new Map<string, ResultGroup>();
  for (const r of results) {
    const k = key(r);
    const g = k ? byKey.get(k) : undefined;
    if (g) g.similar.push(r);
    else {
      const fresh = { lead: r, similar: [] };
      groups.push(fresh);
      if (k) byKey.set(k, fresh);
    }
  }
  return groups;
}
