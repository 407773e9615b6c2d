/**
 * The keyword side of the hybrid search over two FTS5 tables: exact tokens
 * (`chunks_fts`) and the same text stemmed (`chunks_fts_stem`, Porter). Stemming finds
 * "camping" for "camped" — the largest single gain measured on LoCoMo — but alone it let
 * stem-only hits ("plans" for "planned") outrank the vector side's paraphrase answers. So the
 * stemmed table is weighted below the exact one: a chunk's keyword score is
 * `(exact + stemWeight × stem) / (1 + stemWeight)`, each side calibrated on its own (relative
 * to its best hit, or BM25's absolute map). A chunk that matches exactly also matches
 * stemmed and scores up to 1; a stem-only match scores at most `stemWeight / (1 + stemWeight)`.
 */
import type { Db } from '../index/db';
import { hasTable } from '../index/schema';
import { ftsCandidates, ftsMatchesMoreThan, ftsNewest, ftsScoreIds, keywordPlan, type Candidate, type CandidateFilter, type FtsTable, type KeywordPlan } from './candidates';
import { POSTINGS_BUDGET } from './fts-query';
import { bm25RankToScore, relativeBm25 } from './score';

/** Postings the stemmed query reads at most, counted on the exact table (fts-query.ts pruneTerms). */
export const STEM_POSTINGS_BUDGET = POSTINGS_BUDGET / 4;

/**
 * When a table's MATCH finds more than `postings` chunks (then even its rarest kept term is
 * in more: pruneTerms keeps other terms only within the budget), it is not ranked over all
 * of them. The exact table ranks its newest `tier` matches (ftsNewest) and, in a hybrid
 * search, the vector side's candidates (KeywordSide.rescore); the stemmed table ranks its
 * newest `tier` and the exact table's hits outside it (their true stem scores). Up to
 * `postings` every match is ranked as before.
 */
export interface EarlyStop {
  postings: number;
  tier: number;
}

/** The early stop of the keyword side (docs/benchmarks.md, "Keyword side at 1M"). */
export const EARLY_STOP: EarlyStop = { postings: POSTINGS_BUDGET, tier: 2_000 };

export interface LexicalOptions {
  /** How BM25 ranks become 0..1 (score.ts); the same for both tables. */
  calibration: 'relative' | 'absolute';
  /** Weight of the stemmed table beside the exact one (0 = exact tokens only). */
  stemWeight: number;
  /** Where ranking every match stops (tests lower it); default {@link EARLY_STOP}. */
  earlyStop?: EarlyStop | undefined;
}

/** A keyword candidate; `stemOnly` when only the stemmed table matched it. */
export interface KeywordCandidate extends Candidate {
  stemOnly?: boolean;
}

/** The keyword side's candidates, and how to add given chunks' keyword scores when it stopped early. */
export interface KeywordSide {
  candidates: KeywordCandidate[];
  /**
   * Present when the exact table stopped early (and its MATCH has no phrase): the candidates
   * again, with the chunks among `ids` (the vector side's) that its MATCH finds scored too,
   * so a relevant chunk older than the newest tier still gets its keyword score.
   */
  rescore?: ((ids: readonly number[]) => KeywordCandidate[]) | undefined;
}

function calibrate(cands: readonly Candidate[], calibration: LexicalOptions['calibration']): Candidate[] {
  return calibration === 'relative' ? relativeBm25(cands) : cands.map((c) => ({ ...c, score: bm25RankToScore(c.raw) }));
}

/** One table's ranked matches: all of them ranked, or (stopped early) its newest tier ranked. */
interface TableHits {
  table: FtsTable;
  plan: KeywordPlan;
  /** The best `limit` of them. */
  hits: Candidate[];
  stopped: boolean;
  /** Stopped early: the whole tier, scored (`hits` is its best `limit`). */
  tier?: readonly Candidate[];
}

/**
 * Whether a table's MATCH must stop early. The exact table's postings (document counts of
 * its kept terms) bound its matches, so only a plan above the budget is counted; a stem's
 * matches are not bounded by its word's ("deploy" is in 1,165 chunks of the 1M bench
 * corpus, its stem in 849,718), so the stemmed table is always counted — a bounded count,
 * at most `postings + 1` matches walked.
 */
function mustStop(db: Db, table: FtsTable, plan: KeywordPlan, stop: EarlyStop): boolean {
  if (!Number.isFinite(stop.postings) || (table === 'chunks_fts' && plan.postings <= stop.postings)) return false;
  // No table matches more chunks than the index holds: a memory under the budget never counts.
  if (plan.chunks !== undefined && plan.chunks <= stop.postings) return false;
  return ftsMatchesMoreThan(db, table, plan.match, stop.postings);
}

function tableHits(db: Db, table: FtsTable, plan: KeywordPlan, limit: number, filter: CandidateFilter, stopped: boolean, tier: number): TableHits {
  if (!stopped) return { table, plan, hits: ftsCandidates(db, table, plan.match, limit, filter), stopped };
  const ranked = byRank(ftsNewest(db, table, plan.match, tier, filter));
  return { table, plan, hits: ranked.slice(0, limit), stopped, tier: ranked };
}

/** Best BM25 first (more negative is better), then by id as the merge does. */
function byRank(cands: Candidate[]): Candidate[] {
  return cands.sort((a, b) => a.raw - b.raw || a.id - b.id);
}

/**
 * Both tables' hits calibrated and merged by chunk, best first. A chunk in `stemAsExact`
 * without a stem score takes its exact one as its stem score (see the second stage).
 */
function combine(exact: readonly Candidate[], stem: readonly Candidate[] | null, o: LexicalOptions, stemAsExact?: ReadonlySet<number>): KeywordCandidate[] {
  const exactScored = calibrate(exact, o.calibration);
  if (stem === null) return exactScored;
  const stemScored = calibrate(stem, o.calibration);
  const byId = new Map<number, { exact: Candidate | null; stem: number }>();
  for (const c of exactScored) byId.set(c.id, { exact: c, stem: stemAsExact?.has(c.id) ? c.score : 0 });
  for (const c of stemScored) {
    const e = byId.get(c.id);
    if (e) e.stem = c.score;
    else byId.set(c.id, { exact: null, stem: c.score });
  }
  const rawOf = new Map(stemScored.map((c) => [c.id, c.raw]));
  const out: KeywordCandidate[] = [];
  for (const [id, e] of byId) {
    const score = ((e.exact?.score ?? 0) + o.stemWeight * e.stem) / (1 + o.stemWeight);
    out.push(e.exact ? { id, score, raw: e.exact.raw } : { id, score, raw: rawOf.get(id) ?? 0, stemOnly: true });
  }
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}

/** A stopped table's tier hits plus the given chunks' scores (each chunk once), and which were added. */
function withIds(db: Db, t: TableHits, ids: readonly number[]): { hits: Candidate[]; added: Set<number> } {
  const have = new Set(t.hits.map((c) => c.id));
  const more = ftsScoreIds(db, t.table, t.plan.match, ids.filter((id) => !have.has(id)));
  return { hits: byRank([...t.hits, ...more]), added: new Set(more.map((c) => c.id)) };
}

/**
 * A stopped stemmed table's hits with the exact matches' stem scores added: every exact match
 * matches stemmed too, but one older than the stemmed tier was not ranked there and scored 0
 * on that side — below newer, weaker exact matches. Its true stem score comes from
 * the tier when it is there, else from one scoring walk of the stemmed MATCH (ftsScoreIds:
 * its doclist is the longest, ≈ 40–76 ms at 1M, so only when an exact match needs it).
 */
function stemWithExact(db: Db, stem: TableHits, exact: readonly Candidate[]): TableHits {
  if (!stem.stopped) return stem;
  const have = new Set(stem.hits.map((c) => c.id));
  const missing = exact.filter((c) => !have.has(c.id)).map((c) => c.id);
  if (missing.length === 0) return stem;
  const wanted = new Set(missing);
  const inTier = (stem.tier ?? []).filter((c) => wanted.has(c.id));
  for (const c of inTier) wanted.delete(c.id);
  const walked = wanted.size > 0 ? ftsScoreIds(db, stem.table, stem.plan.match, [...wanted]) : [];
  return { ...stem, hits: byRank([...stem.hits, ...inTier, ...walked]) };
}

/**
 * The keyword side: both tables' candidates, merged by chunk and sorted best first (at most
 * `limit` from each table, plus the rescored chunks). An index without the stemmed table
 * (built before schema 6 and not yet rebuilt) is searched by exact tokens only. `raw` is the
 * exact table's rank when the chunk matched there, else the stemmed table's.
 */
export function keywordSide(db: Db, query: string, limit: number, filter: CandidateFilter, o: LexicalOptions): KeywordSide {
  const stop = o.earlyStop ?? EARLY_STOP;
  const plan = keywordPlan(db, query);
  if (!plan) return { candidates: [] };
  const exact = tableHits(db, 'chunks_fts', plan, limit, filter, mustStop(db, 'chunks_fts', plan, stop), stop.tier);
  let stemOn = o.stemWeight > 0 && hasTable(db, 'chunks_fts_stem');
  let stem: TableHits | null = null;
  if (stemOn) {
    // FTS5 stems the MATCH terms itself, so the same expression serves both tables.
    // A stem has more postings than its word ("plan" vs "plans") and the terms are pruned by
    // the exact table's counts: a quarter of the exact side's postings budget keeps the stem
    // query's cost near the exact one's at 100k chunks (docs/benchmarks.md).
    const stemPlan = keywordPlan(db, query, STEM_POSTINGS_BUDGET);
    const stemStops = stemPlan !== null && mustStop(db, 'chunks_fts_stem', stemPlan, stop);
    // A stopped stemmed table ranks its newest tier too. For a phrase beside exact matches it
    // is skipped (its BM25 walks every word's doclist for the IDF: ≈ 45 ms at 1M), and they
    // score as with stems off (an exact match's stem score is close to its exact one).
    if (stemStops && exact.hits.length > 0 && stemPlan.phrase) stemOn = false;
    else if (stemPlan) stem = stemWithExact(db, tableHits(db, 'chunks_fts_stem', stemPlan, limit, filter, stemStops, stop.tier), exact.hits);
  }
  const stemOf = (hits: (t: TableHits) => Candidate[]) => (stem ? hits(stem) : stemOn ? [] : null);
  const candidates = combine(exact.hits, stemOf((t) => t.hits), o);
  // A phrase (a dotted config key, a path) is not scored on given chunks: its
  // walk checks positions in every word's doclist, 70–85 ms at 1M for a common five-word one.
  if (!exact.stopped || plan.phrase) return { candidates };
  // Only the exact table is scored on the given chunks: a stopped stemmed table's doclist is
  // the longest (≈ 40–75 ms to walk at 1M), and its stem-only matches do not enter a hybrid answer.
  // A chunk added here matches the exact word, so its stem too, but outside the stemmed
  // table's tier: its exact score stands in for its stem score.
  return {
    candidates,
    rescore: (ids) => {
      const added = withIds(db, exact, ids);
      return combine(added.hits, stemOf((t) => t.hits), o, stem?.stopped ? added.added : undefined);
    },
  };
}

/**
 * The keyword side's candidates alone, no second stage (see {@link keywordSide}). For the
 * tests and benchmarks that time or check the keyword side by itself.
 * @internal
 */
export function lexicalCandidates(db: Db, query: string, limit: number, filter: CandidateFilter, o: LexicalOptions): KeywordCandidate[] {
  return keywordSide(db, query, limit, filter, o).candidates;
}
