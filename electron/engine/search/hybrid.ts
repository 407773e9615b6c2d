/**
 * The search pipeline (SPEC §7): candidates from both sides (`maxResults ×
 * candidateMultiplier` each), weighted merge by chunk, `minScore` judged on the merged score
 * *before* decay (with the keyword fallback), temporal decay, sort, MMR, top `maxResults`.
 * If one side fails the other's results come back with a warning; without an embedder the
 * search runs FTS-only and says so.
 */
import type { Db } from '../index/db';
import type { Embedder } from '../embed/types';
import type { MemorySource, SearchMode, SearchResult } from '../../../shared/types/search';
import { scanCandidates, vec0Candidates, type Candidate, type CandidateFilter } from './candidates';
import { keywordSide, type EarlyStop, type KeywordCandidate, type KeywordSide } from './lexical';
import { decayMultiplier } from './decay';
import { mmrOrder } from './mmr';
import { spreadOrder } from './spread';
import { spanBoost, type DateSpan } from './dates';
import { makeSnippet } from './snippet';
import { foldRanges, trimmedRange } from './ranges';
import { readIdentity } from '../index/schema';
import { LINE_POOL, rescoreByLines } from './line-candidates';
import { fillResultLines, queryForLines } from './result-lines';
import { lineSimilarities } from './line-sim';
import type { SessionLines } from './session-lines';
import type { MergeWeights } from './score';
import { hasAnnotations, isAnnotationFilterSet, isCuratedMemoryPath, matchesAnnotationFilter, parseAnnotations, type AnnotationFilter } from '../index/annotations';
import { unpackText } from '../index/chunk-text';

export interface HybridBackend {
  db: Db;
  /** How vectors are stored: `vec0` KNN, `fallback` scan, or `none` (no embedder). */
  vector: 'vec0' | 'fallback' | 'none';
  embedder: Embedder | null;
  /** The vec0 KNN on another thread (knn-worker.ts), when the index is big enough to want it. */
  knn?: ((vec: Float32Array, limit: number, filter: CandidateFilter) => Promise<Candidate[]>) | undefined;
  /** A session's rendered lines as its citations number them (session-lines.ts), for results whose chunk text does not say. */
  sessionLines?: SessionLines | undefined;
}

export interface HybridOptions {
  query: string;
  maxResults: number;
  minScore: number;
  candidateMultiplier: number;
  /** false = vector side only (OpenClaw's `hybrid.enabled: false`). */
  hybrid: boolean;
  weights: MergeWeights;
  /** Rank → score calibration of both sides before the merge (score.ts); default absolute. */
  calibration?: 'relative' | 'absolute' | undefined;
  /** Weight of the stemmed keyword table below the exact one (lexical.ts); absent/0 = exact only. */
  stemWeight?: number | undefined;
  /** The query's relative date resolved to days (dates.ts): chunks dated inside are preferred. */
  span?: DateSpan | null | undefined;
  /** Prefer a new file over a shown one when its score is ≥ this × (spread.ts); 1/absent = off. */
  spread?: number | undefined;
  /** Which lines results cite (ranges.ts); absent = each chunk's own lines. */
  ranges?: 'folded' | 'trimmed' | 'chunks' | undefined;
  sources: readonly MemorySource[];
  since?: string | undefined;
  before?: string | undefined;
  decay: { enabled: boolean; halfLifeDays: number };
  mmr: { enabled: boolean; lambda: number };
  explain: boolean;
  now: Date;
  signal?: AbortSignal | undefined;
  /** Only entries whose annotations pass (index/annotations.ts); the candidate pool is widened. */
  annotations?: AnnotationFilter | undefined;
  /** Each result's `lines` for a packer: every line that answers at all (result-lines.ts). */
  packLines?: boolean | undefined;
  /** Where the keyword side stops ranking every match (lexical.ts; tests lower it). */
  earlyStop?: EarlyStop | undefined;
}

export interface HybridOutcome {
  results: SearchResult[];
  mode: SearchMode;
  warnings: string[];
}

interface ChunkInfo {
  id: number;
  path: string;
  source: MemorySource;
  start_line: number;
  end_line: number;
  text: string;
  day: string | null;
  dated: number;
  evergreen: number;
  mtime: number;
}

/** vec0 refuses k above 4096. */
const MAX_K = 4096;

function loadChunks(db: Db, ids: number[]): Map<number, ChunkInfo> {
  const out = new Map<number, ChunkInfo>();
  const stmt = db.prepare('SELECT id, path, source, start_line, end_line, text, day, dated, evergreen, mtime FROM chunks WHERE id = ?');
  for (const id of ids) {
    const row = stmt.get(id) as (Omit<ChunkInfo, 'text'> & { text: string | Buffer }) | undefined;
    if (row) out.set(id, { ...row, text: unpackText(row.text) });
  }
  return out;
}

/** The vector side once the query is embedded: not wanted, failed to embed, or under way. */
type VectorStart =
  | { kind: 'off' }
  | { kind: 'failed'; error: Error }
  | { kind: 'started'; queryVec: Float32Array; run: () => Promise<Candidate[]> };

interface MergedScore {
  vector: number | null;
  text: number | null;
  merged: number;
}

interface Scored {
  c: ChunkInfo;
  e: MergedScore;
  decay: number;
  score: number;
  mmrRank: number | null;
}

/**
 * Embed the query and start the vector side. The query is embedded first so that, with a KNN
 * worker, the vector side's scan runs on the other thread while the keyword side runs on this
 * one (a worker failure re-runs the same query here: identical results).
 */
async function startVectorSide(backend: HybridBackend, o: HybridOptions, filter: CandidateFilter, knnLimit: number): Promise<VectorStart> {
  const embedder = backend.embedder;
  if (embedder === null || backend.vector === 'none') return { kind: 'off' };
  try {
    const [qv] = await embedder.embed([o.query], { signal: o.signal, kind: 'query' });
    if (!qv) throw new Error('the embedder returned no vector');
    // A zero vector (no word the embedder knows: CJK or a bare hash for the static one)
    // has no direction: its "nearest" chunks are arbitrary, so the vector side is empty.
    if (qv.every((x) => x === 0)) return { kind: 'started', queryVec: qv, run: () => Promise.resolve([]) };
    if (backend.vector === 'vec0' && backend.knn) {
      const started = backend.knn(qv, knnLimit, filter).catch(() => vec0Candidates(backend.db, qv, knnLimit, filter));
      return { kind: 'started', queryVec: qv, run: () => started };
    }
    if (backend.vector === 'vec0') return { kind: 'started', queryVec: qv, run: async () => vec0Candidates(backend.db, qv, knnLimit, filter) };
    return { kind: 'started', queryVec: qv, run: async () => scanCandidates(backend.db, qv, knnLimit, filter) };
  } catch (err) {
    if (o.signal?.aborted) throw err;
    return { kind: 'failed', error: err as Error };
  }
}

/** Both sides' candidates; a failing side becomes a warning (vector-only falls back to keywords). */
async function runSides(
  vectorStart: VectorStart,
  keyword: () => KeywordCandidate[],
  wantText: boolean,
  warnings: string[],
): Promise<{ vector: Candidate[] | null; text: KeywordCandidate[] | null }> {
  let text: KeywordCandidate[] | null = null;
  if (wantText) {
    try {
      text = keyword();
    } catch (err) {
      warnings.push(`keyword search failed (${(err as Error).message}); showing vector results only`);
    }
  }
  if (vectorStart.kind === 'off') return { vector: null, text };
  try {
    if (vectorStart.kind === 'failed') throw vectorStart.error;
    return { vector: await vectorStart.run(), text };
  } catch (err) {
    warnings.push(`vector search failed (${(err as Error).message}); showing keyword results only`);
    if (text === null && !wantText) {
      // Vector-only mode failed: fall back to the keyword side rather than nothing.
      try {
        text = keyword();
      } catch (e2) {
        warnings.push(`keyword search failed too (${(e2 as Error).message})`);
      }
    }
    return { vector: null, text };
  }
}

/** The early-stopped keyword side with the vector candidates' keyword scores added (lexical.ts). */
function rescoreKeywords(rescore: NonNullable<KeywordSide['rescore']>, vector: Candidate[], text: KeywordCandidate[], warnings: string[]): KeywordCandidate[] {
  try {
    return rescore(vector.map((c) => c.id));
  } catch (err) {
    warnings.push(`keyword scores of the vector results could not be read (${(err as Error).message})`);
    return text;
  }
}

/** Re-score the candidates of both sides by their best line vector (line-candidates.ts). */
function rescoreLines(db: Db, queryVec: Float32Array, vector: Candidate[], text: KeywordCandidate[] | null, limit: number, warnings: string[]): Candidate[] {
  try {
    // Stem-only keyword matches are left out, as in the merge: they may not enter a hybrid
    // answer unless the vectors found them themselves.
    const keywordIds = (text ?? []).filter((c) => !c.stemOnly).map((c) => c.id);
    return rescoreByLines(db, queryVec, [...vector.map((c) => c.id), ...keywordIds], limit);
  } catch (err) {
    // The chunk cosines stand: a failed line read costs the re-scoring, not the answer.
    warnings.push(`line vectors could not be read (${(err as Error).message}); vector scores are per chunk`);
    return vector.slice(0, limit);
  }
}

/** The weighted merge by chunk, with the weights that apply to this mode. */
function mergeSides(vector: Candidate[] | null, text: KeywordCandidate[] | null, weights: MergeWeights): { merged: Map<number, MergedScore>; textWeight: number } {
  // Weights apply only when both sides ran; a lone side scores on its own scale. A keyword
  // side without one exact match (every query word unknown or too common) leaves the vectors
  // alone too: weighted down they all fell under minScore and the answer was empty.
  const alone = vector !== null && (text === null || text.every((c) => c.stemOnly));
  const w = alone ? { vector: 1, text: 0 } : vector && text ? weights : { vector: 0, text: 1 };
  // The keyword side comes calibrated (lexical.ts); the vector side keeps its cosine scale
  // (already 0..1 and comparable across queries; made relative it swamped the keyword side:
  // measured in docs/benchmarks.md).
  const merged = new Map<number, MergedScore>();
  for (const c of vector ?? []) merged.set(c.id, { vector: c.score, text: null, merged: 0 });
  for (const c of text ?? []) {
    // Beside a vector side, stems only re-rank exact matches: a stem-only match ("plans"
    // for "planned") scoring at all outranked the vectors' paraphrase answers, whose
    // scores lie close together (measured: docs/benchmarks.md). Keyword-only, it still counts.
    if (c.stemOnly && vector) continue;
    const e = merged.get(c.id);
    if (e) e.text = c.score;
    else merged.set(c.id, { vector: null, text: c.score, merged: 0 });
  }
  for (const e of merged.values()) e.merged = w.vector * (e.vector ?? 0) + w.text * (e.text ?? 0);
  return { merged, textWeight: w.text };
}

/** minScore judges relevance before decay; if nothing passes, keep good keyword hits. */
function passMinScore(merged: Map<number, MergedScore>, hasText: boolean, minScore: number, textWeight: number): [number, MergedScore][] {
  let kept = [...merged.entries()].filter(([, e]) => e.merged >= minScore);
  if (kept.length === 0 && hasText) {
    const relaxed = Math.min(minScore, textWeight);
    kept = [...merged.entries()].filter(([, e]) => e.text !== null && e.merged >= relaxed);
    // Last resort: BM25 scores are not calibrated (a term found in half of a small corpus
    // scores ~0, an exact hash in a 3-note memory ~0.3), so a query whose words do occur
    // in memory is never answered with nothing; the keyword hits come back in rank order.
    if (kept.length === 0) kept = [...merged.entries()].filter(([, e]) => e.text !== null);
  }
  return kept;
}

/** Decay and date preference applied, sorted, then MMR and spread. */
function scoreAndOrder(db: Db, kept: [number, MergedScore][], o: HybridOptions): Scored[] {
  const chunks = loadChunks(db, kept.map(([id]) => id));
  const scored: Scored[] = [];
  for (const [id, e] of kept) {
    const c = chunks.get(id);
    if (!c) continue;
    if (isAnnotationFilterSet(o.annotations) && !matchesAnnotationFilter(chunkAnnotations(c), o.annotations)) continue;
    const decay = o.decay.enabled ? decayMultiplier({ day: c.day, evergreen: c.evergreen === 1, mtime: c.mtime }, o.decay.halfLifeDays, o.now) : 1;
    scored.push({ c, e, decay, score: e.merged * decay * spanBoost(c.day, o.span ?? null), mmrRank: null });
  }
  scored.sort((a, b) => b.score - a.score || a.c.id - b.c.id);
  let ordered = scored;
  if (o.mmr.enabled && scored.length > 1) {
    ordered = mmrOrder(scored.map((s) => ({ score: s.score, text: s.c.text })), o.mmr.lambda).map((i) => scored[i] as Scored);
    ordered.forEach((s, i) => (s.mmrRank = i + 1));
  } else if (o.mmr.enabled) scored.forEach((s, i) => (s.mmrRank = i + 1));
  if (o.spread !== undefined && o.spread < 1) ordered = spreadOrder(ordered.map((s) => ({ ...s, path: s.c.path })), o.maxResults, o.spread);
  return ordered;
}

/** A chunk's annotations (memory files only: transcripts carry none). */
function chunkAnnotations(c: ChunkInfo, from = c.start_line, to = c.end_line) {
  if (c.source !== 'memory') return { triggers: [], importance: null, projects: [] };
  const lines = c.text.split('\n').slice(Math.max(0, from - c.start_line), Math.max(0, to - c.start_line + 1));
  return parseAnnotations(lines.join('\n'), isCuratedMemoryPath(c.path));
}

/** The top results with the lines they cite (ranges.ts), snippets and the explain breakdown. */
function citeResults(ordered: Scored[], o: HybridOptions): SearchResult[] {
  const cite = o.ranges ?? 'chunks';
  const cited = ordered.map((s) => {
    const [startLine, endLine] = cite === 'chunks' ? [s.c.start_line, s.c.end_line] : trimmedRange(s.c.text, s.c.start_line, s.c.end_line);
    return { s, path: s.c.path, startLine, endLine };
  });
  const top = cite === 'folded' ? foldRanges(cited, o.maxResults) : cited.slice(0, o.maxResults);
  return top.map(({ s, startLine, endLine }) => {
    const r: SearchResult = {
      path: s.c.path,
      startLine,
      endLine,
      score: s.score,
      snippet: makeSnippet(s.c.text, o.query),
      source: s.c.source,
      citation: `${s.c.path}#L${startLine}-L${endLine}`,
    };
    if (o.explain) r.explain = { vector: s.e.vector, text: s.e.text, merged: s.e.merged, decay: s.decay, mmrRank: s.mmrRank };
    const annotations = chunkAnnotations(s.c, startLine, endLine);
    if (hasAnnotations(annotations)) r.annotations = annotations;
    if (s.c.day && s.c.dated === 1) r.day = s.c.day;
    return r;
  });
}

/** Run one search. Never throws for a failing side; throws only when aborted. */
export async function hybridSearch(backend: HybridBackend, o: HybridOptions): Promise<HybridOutcome> {
  const warnings: string[] = [];
  // A filter on annotations drops candidates after scoring: start from the deepest pool.
  const limit = isAnnotationFilterSet(o.annotations) ? MAX_K : Math.min(MAX_K, Math.max(1, o.maxResults * o.candidateMultiplier));
  // The index holds only its identity's sources: asking for all of them needs no filter.
  const identity = readIdentity(backend.db);
  const indexed = identity?.sources as MemorySource[] | undefined;
  const filter: CandidateFilter = { sources: o.sources, indexed, since: o.since, before: o.before };
  // An index with line vectors re-scores the candidates of both sides by their best line
  // (line-candidates.ts); the chunk KNN then fetches a deeper pool for it.
  const lines = identity?.lines === true;
  const vectorStart = await startVectorSide(backend, o, filter, lines ? Math.min(MAX_K, limit * LINE_POOL) : limit);
  let rescore: KeywordSide['rescore'];
  const keyword = () => {
    const side = keywordSide(backend.db, o.query, limit, filter, {
      calibration: o.calibration ?? 'absolute',
      stemWeight: o.stemWeight ?? 0,
      earlyStop: o.earlyStop,
    });
    rescore = side.rescore;
    return side.candidates;
  };
  const sides = await runSides(vectorStart, keyword, vectorStart.kind === 'off' || o.hybrid, warnings);
  let { vector, text } = sides;
  // A keyword side that stopped early (a word in a large share of the chunks) scored only
  // its newest matches: the vector side's candidates get their keyword scores now.
  if (rescore && vector && vector.length > 0 && text) text = rescoreKeywords(rescore, vector, text, warnings);
  if (lines && vector && vector.length > 0 && vectorStart.kind === 'started') vector = rescoreLines(backend.db, vectorStart.queryVec, vector, text, limit, warnings);
  const mode: SearchMode = vector && text ? 'hybrid' : vector ? 'vector-only' : 'fts-only';

  const { merged, textWeight } = mergeSides(vector, text, o.weights);
  const kept = passMinScore(merged, (text?.length ?? 0) > 0, o.minScore, textWeight);
  // A requested result is never hidden silently: when the cut leaves fewer than asked for,
  // the response says how many candidates it held back and why.
  const hidden = Math.min(merged.size, o.maxResults) - kept.length;
  if (hidden > 0) {
    warnings.push(
      `${hidden} more result${hidden === 1 ? '' : 's'} scored below minScore ${o.minScore} and ${hidden === 1 ? 'is' : 'are'} not shown (lower minScore to see ${hidden === 1 ? 'it' : 'them'})`,
    );
  }
  const ordered = scoreAndOrder(backend.db, kept, o);
  const results = citeResults(ordered, o);
  // The lines that answer, for the returned results only (result-lines.ts): ranking is done.
  // For a packer, each line's closeness in meaning too (line-sim.ts), from the query's vector.
  if (results.length > 0) {
    const queryVec = vectorStart.kind === 'started' ? vectorStart.queryVec : null;
    const sims = (texts: readonly string[]) => lineSimilarities(backend.db, backend.embedder, queryVec, texts, o.signal);
    await fillResultLines(results, ordered.map((x) => x.c), queryForLines(backend.db, o.query, !!o.span), {
      forPacking: o.packLines === true,
      sims,
      sessionLines: backend.sessionLines,
      // Cited lines narrow to each hit's match (match-span.ts) unless the chunks' own lines are asked for.
      narrow: (o.ranges ?? 'chunks') !== 'chunks',
      wordsOnly: queryVec === null,
    });
  }
  return { results, mode, warnings };
}
