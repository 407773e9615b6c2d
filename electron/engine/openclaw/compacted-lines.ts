/**
 * The compacted part of a session's current branch, as lines a recall can pick from: what
 * the last compaction on the branch replaced by its summary — every user and
 * assistant line before the compaction's first kept entry, rendered and numbered exactly as
 * session search and `cairn get` render and number them (index/session-text.ts), so a pick's
 * citation `sessions/<id>.jsonl#L88` opens that line. Each line knows whether the compaction
 * audit lists it as lost (it says an identifier, an ask, a TODO or a decision no summary kept).
 *
 * Picking is a plain IDF-weighted match of the query's terms (the keyword side's own terms,
 * search/fts-query.ts, with a light stem) against the lines: no index and no vectors, because
 * the compacted part of one session is a few hundred lines and this runs inside a prompt's
 * 300 ms recall. Pure: no I/O.
 */
import { cjkGrams, hasCjk, splitCjk } from '../../../shared/text/cjk';
import { lowerWords } from '../../../shared/text/tokens';
import type { PickedLine, SearchResult } from '../../../shared/types/search';
import { branchPath } from '../transcript/context';
import { isCompactionEntry } from '../transcript/entries';
import type { CompactionEntry, Entry, Transcript } from '../transcript/types';
import { renderEntry } from '../index/session-text';
import { queryTerms } from '../search/fts-query';
import { cutAround } from '../search/snippet';

/** One rendered line of the compacted part. */
export interface CompactedLine {
  /** The line number a session citation uses (JSONL line; seq + 1 in OpenClaw's SQLite store). */
  line: number;
  /** `User: …` / `Assistant: …`, redacted, on one line. */
  text: string;
  role: 'user' | 'assistant';
  /** The stemmed words, space-separated with a space at each end (a phrase is checked by `includes`). */
  words: string;
  /** The audit lists something this line says as lost by a compaction. */
  lost: boolean;
}

/** The compacted part of a branch: the entries the model no longer sees, and the summary it sees instead. */
export interface CompactedPart {
  /** Changes when a new compaction replaces more of the branch (the cache key of what is prepared from it). */
  key: string;
  /** Indices into `t.entries`, file order. */
  entries: number[];
  /** The summary the model reads in their place. */
  summary: string;
}

/** The compacted lines and, per stemmed word or CJK gram, the positions of the lines holding it. */
export interface CompactedLines {
  lines: CompactedLine[];
  postings: Map<string, number[]>;
}

/** What the audit says was lost: the lines it cites and the identifiers it names. */
export interface LostSpec {
  lines: ReadonlySet<number>;
  identifiers: readonly string[];
}

/** At most this many hits from the compacted part per recall (each may hold a context line). */
const MAX_COMPACTED_HITS = 3;
/** A line is picked only when it matches at least this share of the query's IDF weight. */
const MIN_COVERAGE = 0.3;
/** A picked line longer than this is cut around its first match (whole messages are one line). */
const LINE_CHARS = 320;

/** A light stem so `listens`/`listen`, `ports`/`port` meet (both sides stemmed alike). */
const stem = (w: string): string => (w.length > 4 ? w.replace(/(?:ing|ed|es|s)$/, '') : w);
const wordsKey = (words: readonly string[]): string => ` ${words.map(stem).join(' ')} `;

/**
 * The compacted part of the branch ending at the transcript's last entry, or undefined when
 * no compaction is on it. The same boundary as the context builder's (transcript/context.ts
 * buildContext): entries before the last compaction that come before its first kept entry.
 */
export function compactedPart(t: Transcript): CompactedPart | undefined {
  const path = branchPath(t);
  let at = -1;
  for (let k = path.length - 1; k >= 0; k--) {
    if (isCompactionEntry(t.entries[path[k]!]!)) {
      at = k;
      break;
    }
  }
  if (at < 0) return undefined;
  const c = t.entries[path[at]!] as CompactionEntry;
  const entries: number[] = [];
  for (let k = 0; k < at; k++) {
    const e = t.entries[path[k]!] as Entry;
    if (e.id === c.firstKeptEntryId) break;
    if (!isCompactionEntry(e)) entries.push(path[k]!);
  }
  return { key: `${c.id}:${entries.length}:${entries.at(-1) ?? -1}`, entries, summary: typeof c.summary === 'string' ? c.summary : '' };
}

/** The keys a line is found by: its stemmed words, and the unigrams and bigrams of its CJK runs. */
function lineKeys(words: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const w of words) {
    if (!hasCjk(w)) {
      keys.add(stem(w));
      continue;
    }
    for (const p of splitCjk(w)) {
      if (p.cjk) for (const g of cjkGrams(p.text)) keys.add(g);
      else for (const x of lowerWords(p.text)) keys.add(stem(x));
    }
  }
  return keys;
}

/**
 * The compacted part's rendered lines, each marked lost when the audit says so, with their
 * postings (a query then reads the lines holding its words, not every line: a long session's
 * compacted part is thousands of lines).
 */
export function compactedLines(t: Transcript, part: CompactedPart, lost: LostSpec): CompactedLines {
  // An identifier the current summary still carries is in front of the model: not lost now.
  const ids = lost.identifiers.filter((v) => v.length >= 3 && !part.summary.includes(v));
  const out: CompactedLine[] = [];
  const postings = new Map<string, number[]>();
  for (const i of part.entries) {
    const e = t.entries[i] as Entry;
    const text = renderEntry(e);
    if (text === undefined || isCompactionEntry(e)) continue;
    const line = t.entryLines[i]!;
    const words = lowerWords(text);
    for (const k of lineKeys(words)) {
      const list = postings.get(k);
      if (list) list.push(out.length);
      else postings.set(k, [out.length]);
    }
    out.push({
      line,
      text,
      role: text.startsWith('User:') ? 'user' : 'assistant',
      words: wordsKey(words),
      lost: lost.lines.has(line) || ids.some((v) => text.includes(v)),
    });
  }
  return { lines: out, postings };
}

/** A query term: the key its lines are posted under, and how a candidate line is checked for all of it. */
interface Term {
  first: string;
  check?: (l: CompactedLine) => boolean;
  /** The first word (or gram) as typed, to find where to cut a long line. */
  probe: string;
}

/** A term of queryTerms (search/fts-query.ts): a word, a phrase of words, or CJK (a gram, or a quoted run's characters). */
function toTerm(t: readonly string[]): Term {
  const probe = t[0]!;
  if (hasCjk(probe)) {
    const run = t.join('');
    if (Array.from(run).length <= 2) return { first: run, probe };
    return { first: cjkGrams(run).at(-1)!, check: (l) => l.text.toLowerCase().includes(run), probe };
  }
  if (t.length === 1) return { first: stem(probe), probe };
  const key = wordsKey(t);
  return { first: stem(probe), check: (l) => l.words.includes(key), probe };
}

/** `text` cut to {@link LINE_CHARS} around `probe` (the speaker label kept): snippet.ts's one cut of a long line. */
function cutLine(text: string, probe: string): string {
  if (text.length <= LINE_CHARS) return text;
  const colon = text.indexOf(': ');
  const label = colon > 0 && colon < 12 ? text.slice(0, colon + 2) : '';
  const body = text.slice(label.length);
  return label + cutAround(body, Math.max(0, body.toLowerCase().indexOf(probe)), LINE_CHARS - label.length);
}

/**
 * The lines of `lines` that answer `query`, as at most {@link MAX_COMPACTED_HITS} hits citing
 * `sessions/<sessionId>.jsonl`. A line's coverage is the share of the query's IDF weight (IDF
 * over the compacted lines) it matches; a line the audit lists as lost scores `0.5 + 0.5 ×
 * coverage` — this very conversation said it and no summary kept it — and any other
 * `0.85 × coverage`. A matching reply brings the question before it; a matching question
 * brings the reply after it (a reply only makes sense with its question). Picks next to each
 * other in the part are one hit.
 */
export function pickCompacted({ lines, postings }: CompactedLines, query: string, sessionId: string): SearchResult[] {
  if (lines.length === 0) return [];
  const terms = queryTerms(query).map(toTerm);
  if (terms.length === 0) return [];
  // Per term, the lines holding it; the weight of a term is its IDF over the compacted lines.
  const holding = terms.map((t) => (postings.get(t.first) ?? []).filter((at) => !t.check || t.check(lines[at]!)));
  const idf = holding.map((h) => Math.log(1 + (lines.length + 1) / (h.length + 0.5)));
  const total = idf.reduce((a, b) => a + b, 0);
  const got = new Map<number, { weight: number; probe: string }>();
  holding.forEach((h, k) => {
    for (const at of h) {
      const g = got.get(at);
      if (g) g.weight += idf[k]!;
      else got.set(at, { weight: idf[k]!, probe: terms[k]!.probe });
    }
  });
  const scored: { at: number; score: number; probe: string }[] = [];
  for (const [at, g] of got) {
    const coverage = g.weight / total;
    if (coverage < MIN_COVERAGE) continue;
    scored.push({ at, score: lines[at]!.lost ? 0.5 + 0.5 * coverage : 0.85 * coverage, probe: g.probe });
  }
  scored.sort((a, b) => b.score - a.score || a.at - b.at);

  // Picked line positions → their score (0 for context) and probe.
  const picked = new Map<number, { score: number; probe: string; role: PickedLine['role'] }>();
  let matches = 0;
  for (const s of scored) {
    if (matches >= MAX_COMPACTED_HITS) break;
    if (picked.get(s.at)?.role === 'match') continue;
    picked.set(s.at, { score: s.score, probe: s.probe, role: 'match' });
    matches++;
    const l = lines[s.at]!;
    const ctxAt = l.role === 'assistant' ? s.at - 1 : l.text.trimEnd().endsWith('?') ? s.at + 1 : -1;
    const neighbour = lines[ctxAt];
    const roleOk = neighbour && (l.role === 'assistant' ? neighbour.role === 'user' : neighbour.role === 'assistant');
    if (roleOk && !picked.has(ctxAt)) picked.set(ctxAt, { score: 0, probe: s.probe, role: 'context' });
  }
  // Runs of neighbouring picks become one hit.
  const order = [...picked.keys()].sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const at of order) {
    const run = runs.at(-1);
    if (run && at === run.at(-1)! + 1) run.push(at);
    else runs.push([at]);
  }
  const hits = runs.map((run) => toHit(run.map((at) => ({ l: lines[at]!, p: picked.get(at)! })), sessionId));
  return hits.sort((a, b) => b.score - a.score);
}

function toHit(run: { l: CompactedLine; p: { score: number; probe: string; role: PickedLine['role'] } }[], sessionId: string): SearchResult {
  const path = `sessions/${sessionId}.jsonl`;
  const first = run[0]!.l.line;
  const last = run.at(-1)!.l.line;
  const lines: PickedLine[] = run.map(({ l, p }) => ({ line: l.line, text: cutLine(l.text, p.probe), score: Math.round(p.score * 1000) / 1000, role: p.role }));
  const excerpt = lines.map((l) => l.text).join('\n');
  return {
    path,
    startLine: first,
    endLine: last,
    score: Math.max(...run.map(({ p }) => p.score)),
    snippet: excerpt,
    source: 'sessions',
    citation: first === last ? `${path}#L${first}` : `${path}#L${first}-L${last}`,
    lines,
    excerpt,
  };
}
