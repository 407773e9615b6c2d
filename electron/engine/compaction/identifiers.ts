/**
 * Finding identifiers in text for the deterministic extract (SPEC §4 "Beyond"): URLs, paths,
 * hashes, UUIDs, ids with digits, host:port pairs and ports, e-mail addresses. Errs on the
 * side of keeping a string: a missing identifier costs more than a redundant one.
 */

const PATTERNS: RegExp[] = [
  // URLs (any scheme with //), trailing punctuation trimmed below
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)\]}]+/gi,
  // e-mail
  /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/g,
  // host:port and ip:port (localhost:8080, 127.0.0.1:8787, db.internal:5432)
  /\b(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|[a-z0-9-]+(?:\.[a-z0-9-]+)+):\d{2,5}\b/gi,
  // "port 8080" / "PORT=3000"
  /\bport\s*[=:]?\s*\d{2,5}\b/gi,
  // bare IPv4
  /\b\d{1,3}(?:\.\d{1,3}){3}\b/g,
  // Windows paths
  /\b[A-Za-z]:\\[^\s"'<>|]+/g,
  // Unix paths: ~/x, ./x, ../x, or absolute with at least two segments (not the "/png" of "image/png")
  /(?:(?:~|\.{1,2})\/[\w.@%+=-]+(?:\/[\w.@%+=-]*)*|(?<![\w/.])\/[\w.@%+=-]+(?:\/[\w.@%+=-]+)+)/g,
  // relative paths with a directory and an extension (src/server.ts)
  /\b[\w.@-]+(?:\/[\w.@-]+)+\.[A-Za-z0-9]{1,8}\b/g,
  // file names with a known-looking extension (deploy.md, package.json)
  /\b[\w-]+(?:\.[\w-]+)*\.(?:[jt]sx?|mjs|cjs|json5?|md|ya?ml|toml|ini|env|py|rs|go|rb|java|kt|c|cc|cpp|h|hpp|cs|sh|sql|html|css|txt|log|lock|gguf|sqlite|jsonl|png|jpe?g|gif|webp|pdf|csv)\b/g,
  // UUIDs
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  // hex hashes / ids (7–64 hex digits with at least one digit and one letter, checked below)
  /\b[0-9a-f]{7,64}\b/gi,
  // ticket-style ids (ABC-123) and snake/kebab ids that carry a digit (toolu_01A, req-8f3a2)
  /\b[A-Z][A-Z0-9]+-\d+\b/g,
  /\b[A-Za-z][A-Za-z0-9]*[_-][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*\b/g,
  // semantic versions
  /\bv?\d+\.\d+\.\d+(?:[-+][\w.]+)?\b/g,
];

const TRAILING = /[.,;:!?)\]}'"`]+$/;

function plausible(s: string, re: RegExp): boolean {
  if (s.length < 3 || s.length > 300) return false;
  if (re.source.startsWith('\\b[0-9a-f]{7,64}')) return /\d/.test(s) && /[a-f]/i.test(s);
  if (re.source.startsWith('(?:(?:~|')) return s !== '/' && s.replace(/[/.~]/g, '').length >= 2 && !/^\/\//.test(s);
  return true;
}

/** Every identifier in `text`, in order of first appearance, without duplicates. */
export function findIdentifiers(text: string, into: Set<string> = new Set()): Set<string> {
  const found: { at: number; s: string }[] = [];
  for (const re of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const s = m[0].replace(TRAILING, '');
      if (plausible(s, re)) found.push({ at: m.index, s });
    }
  }
  found.sort((a, b) => a.at - b.at);
  for (const f of found) into.add(f.s);
  return into;
}

/** Length of the substrings the containment index is keyed by (identifiers are ≥ 3 chars). */
const GRAM = 3;

/**
 * Each 3-character substring of `texts` → the indexes of the texts that hold it: the
 * containment index of `dropContained` and of the audit's kept-text lookup (audit-keep.ts).
 */
export function gramPostings(texts: readonly string[]): Map<string, number[]> {
  const postings = new Map<string, number[]>();
  texts.forEach((t, i) => {
    const seen = new Set<string>();
    for (let j = 0; j + GRAM <= t.length; j++) {
      const g = t.slice(j, j + GRAM);
      if (seen.has(g)) continue;
      seen.add(g);
      const p = postings.get(g);
      if (p) p.push(i);
      else postings.set(g, [i]);
    }
  });
  return postings;
}

/**
 * Drop identifiers wholly contained in a longer one of the set (a URL's host, a path's tail).
 *
 * An identifier is dropped exactly when some longer one contains it (containment chains end at
 * one that is kept, so this is what keeping the longest first and dropping what they contain
 * gives). Comparing each with every longer one was quadratic: 50,093 identifiers of a 100 MB
 * session took 13.5 s of the engine thread. Now the candidates are the identifiers that
 * share its rarest 3-character substring, found through an index of those substrings.
 */
export function dropContained(ids: Iterable<string>): string[] {
  const list = [...ids];
  const unique = [...new Set(list)];
  const postings = gramPostings(unique);
  const dropped = new Set<string>();
  for (const s of unique) {
    let rarest: number[] | undefined;
    for (let j = 0; j + GRAM <= s.length; j++) {
      const p = postings.get(s.slice(j, j + GRAM));
      if (p && (!rarest || p.length < rarest.length)) rarest = p;
    }
    // Shorter than a gram (not produced by findIdentifiers): compare with all.
    const candidates = rarest ?? unique.map((_, i) => i);
    for (const i of candidates) {
      const t = unique[i]!;
      if (t.length > s.length && t.includes(s)) {
        dropped.add(s);
        break;
      }
    }
  }
  return list.filter((s) => !dropped.has(s));
}
