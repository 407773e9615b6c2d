/**
 * Search history: the last queries that found something, newest first, kept in
 * localStorage and offered when the search box is empty.
 */
const KEY = 'cairn.search.history';
const MAX = 12;

/** The remembered queries, newest first. */
export function loadHistory(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, MAX) : [];
  } catch {
    return [];
  }
}

/**
 * Remember `q` (moved to the front if known); returns the new list. Search-as-you-type
 * answers every prefix ("res", "restic", "restic backups"): a query that extends or shortens
 * the newest one replaces it instead of piling up.
 */
export function remember(q: string): string[] {
  const t = q.trim();
  if (t.length < 2) return loadHistory();
  const [newest, ...rest] = loadHistory();
  const older = newest !== undefined && (t.startsWith(newest) || newest.startsWith(t)) ? rest : newest === undefined ? [] : [newest, ...rest];
  const next = [t, ...older.filter((x) => x !== t)].slice(0, MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // storage full: history is a convenience
  }
  return next;
}
