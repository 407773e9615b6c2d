import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { bm25RankToScore, resolveWeights, vectorScore } from '../../electron/engine/search/score';
import { ageDays, decayMultiplier } from '../../electron/engine/search/decay';
import { jaccard, mmrOrder } from '../../electron/engine/search/mmr';
import { buildFtsQuery, queryTerms } from '../../electron/engine/search/fts-query';
import { makeSnippet } from '../../electron/engine/search/snippet';
import { ftsIndexText, similarityTokens } from '../../shared/text/tokens';
import { settingsWith } from '../helpers/memory-fixture';

describe('BM25 rank → score', () => {
  it('maps rank 0 → 1, rank 1 → 0.5, very negative → ≈1, and keeps the order of matches', () => {
    expect(bm25RankToScore(0)).toBe(1);
    expect(bm25RankToScore(1)).toBe(0.5);
    expect(bm25RankToScore(-1e6)).toBeCloseTo(1, 5);
    expect(bm25RankToScore(-1)).toBe(0.5);
    expect(bm25RankToScore(-3)).toBe(0.75);
    // More negative (better) ranks score higher: the ranking is not erased.
    expect(bm25RankToScore(-8)).toBeGreaterThan(bm25RankToScore(-2));
    expect(bm25RankToScore(Number.NaN)).toBe(0);
  });

  it('vector score is 1 − cosine distance, clamped', () => {
    expect(vectorScore(0)).toBe(1);
    expect(vectorScore(0.25)).toBe(0.75);
    expect(vectorScore(1.5)).toBe(0);
  });
});

describe('merge weights', () => {
  const hybrid = settingsWith().query.hybrid;
  it('defaults to 0.7/0.3 for real embedding models and weighs the static embedder (potion) even with BM25', () => {
    expect(resolveWeights(hybrid, 'openai')).toEqual({ vector: 0.7, text: 0.3 });
    expect(resolveWeights(hybrid, 'static')).toEqual({ vector: 0.5, text: 0.5 });
  });
  it('explicit config wins and is normalised to sum 1', () => {
    expect(resolveWeights({ ...hybrid, vectorWeight: 0.6, textWeight: 0.6 }, 'static')).toEqual({ vector: 0.5, text: 0.5 });
    expect(resolveWeights({ ...hybrid, vectorWeight: 0.2 }, 'openai')).toEqual({ vector: 0.2, text: 0.8 });
  });
});

describe('temporal decay', () => {
  const now = new Date('2024-06-30T00:00:00Z');
  it('is 0.5 at the half-life and 0.25 at twice it', () => {
    expect(decayMultiplier({ day: '2024-05-31', evergreen: false, mtime: 0 }, 30, now)).toBeCloseTo(0.5, 10);
    expect(decayMultiplier({ day: '2024-05-01', evergreen: false, mtime: 0 }, 30, now)).toBeCloseTo(0.25, 10);
  });
  it('never decays evergreen files (MEMORY.md, undated notes)', () => {
    expect(decayMultiplier({ day: '2000-01-01', evergreen: true, mtime: 0 }, 30, now)).toBe(1);
  });
  it('treats a future date as age 0: decay never boosts', () => {
    expect(ageDays('2025-01-01', 0, now)).toBe(0);
    expect(decayMultiplier({ day: '2030-01-01', evergreen: false, mtime: 0 }, 30, now)).toBe(1);
  });
  it('uses mtime when there is no day', () => {
    const mtime = now.getTime() - 30 * 86_400_000;
    expect(decayMultiplier({ day: null, evergreen: false, mtime }, 30, now)).toBeCloseTo(0.5, 10);
  });
});

describe('MMR', () => {
  const items = [
    { score: 0.9, text: 'deploy the api to production on friday' },
    { score: 0.89, text: 'deploy the api to production on friday again' },
    { score: 0.7, text: 'budget meeting with finance about q3' },
    { score: 0.3, text: 'unrelated note on houseplants' },
  ];
  it('λ = 1 is pure relevance order', () => {
    expect(mmrOrder(items, 1)).toEqual([0, 1, 2, 3]);
  });
  it('λ < 1 moves a near-duplicate below a different result', () => {
    expect(mmrOrder(items, 0.5)).toEqual([0, 2, 1, 3]);
  });
  it('breaks ties by relevance, then by original order (stable)', () => {
    const tied = [
      { score: 0.5, text: 'alpha' },
      { score: 0.5, text: 'beta' },
      { score: 0.5, text: 'gamma' },
    ];
    expect(mmrOrder(tied, 1)).toEqual([0, 1, 2]);
    expect(mmrOrder(tied, 0.7)).toEqual([0, 1, 2]);
  });
  it('uses Jaccard over words, CJK as unigrams + bigrams', () => {
    expect(jaccard(new Set(['a', 'b']), new Set(['b', 'c']))).toBeCloseTo(1 / 3);
    expect(similarityTokens('東京会議 ok')).toEqual(['東', '京', '会', '議', '東京', '京会', '会議', 'ok']);
  });
});

describe('FTS query building', () => {
  it('ORs content words and drops stop words', () => {
    expect(buildFtsQuery('what did I decide about the database migration?')).toBe('"decide" OR "database" OR "migration"');
  });
  it('keeps quoted phrases and exact tokens with inner punctuation whole', () => {
    expect(queryTerms('"dark mode" memorySearch.query.minScore 127.0.0.1:8080')).toEqual([
      ['dark', 'mode'],
      ['memorysearch', 'query', 'minscore'],
      ['127', '0', '0', '1', '8080'],
    ]);
  });
  it('searches hash-like tokens as prefixes (short commit hashes)', () => {
    expect(buildFtsQuery('commit 3f9a2c1')).toBe('"commit" OR "3f9a2c1" *');
    expect(buildFtsQuery('port 3300 v2')).toBe('"port" OR "3300" OR "v2"');
  });
  it('turns CJK runs into bigrams (one character stays a unigram)', () => {
    expect(buildFtsQuery('東京会議')).toBe('"東京" OR "京会" OR "会議"');
    expect(buildFtsQuery('猫')).toBe('"猫"');
  });
  it('searches stop words when the query has nothing else', () => {
    expect(buildFtsQuery('what is it')).toBe('"what" OR "is" OR "it"');
    expect(buildFtsQuery('?!')).toBeNull();
  });
  it('never produces an FTS5 syntax error, whatever the input', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE f USING fts5(body, tokenize='unicode61 remove_diacritics 2')");
    db.prepare('INSERT INTO f(body) VALUES (?)').run(ftsIndexText('NOT a AND b OR c NEAR(d) "quote" col:val 東京'));
    const nasty = ['NOT', 'a AND', 'OR OR', '"unbalanced', 'NEAR(x y', 'body:foo', '*', '^start', 'a - b', "it's", '-x', '(((', '"""', 'x"y', '東京"会議'];
    for (const q of nasty) {
      const m = buildFtsQuery(q);
      if (m) expect(() => db.prepare('SELECT rowid FROM f WHERE f MATCH ?').all(m)).not.toThrow();
    }
    expect(db.prepare('SELECT count(*) c FROM f WHERE f MATCH ?').get(buildFtsQuery('NEAR(d)'))).toEqual({ c: 1 });
  });
});

describe('snippets', () => {
  it('are at most 700 chars and show the match', () => {
    const text = `${'intro line\n'.repeat(100)}the answer is ECONNREFUSED here\n${'tail\n'.repeat(100)}`;
    const s = makeSnippet(text, 'ECONNREFUSED');
    expect(s.length).toBeLessThanOrEqual(700);
    expect(s).toContain('ECONNREFUSED');
    expect(makeSnippet('short', 'x')).toBe('short');
    const emoji = makeSnippet('😀'.repeat(500), 'x');
    expect(emoji.length).toBeLessThanOrEqual(700);
    expect(() => encodeURIComponent(emoji)).not.toThrow();
  });
});

describe('keyword term pruning', () => {
  it('drops terms found in more than half the chunks, keeps the rarest first within the postings budget', async () => {
    const { pruneTerms } = await import('../../electron/engine/search/fts-query');
    const df: Record<string, number> = { user: 900, postgres: 12, migration: 40, common: 25_000, rare: 3 };
    const get = (t: string[]) => df[t[0]!];
    expect(pruneTerms([['user'], ['postgres'], ['migration']], get, 1000)).toEqual([['postgres'], ['migration']]);
    // Only common terms: the rarest one is still searched.
    expect(pruneTerms([['user'], ['common']], get, 1000)).toEqual([['user']]);
    // Budget: rarest first, and never empty.
    expect(pruneTerms([['common'], ['rare'], ['migration']], get, 100_000)).toEqual([['rare'], ['migration']]);
    // Unknown terms cost nothing and stay.
    expect(pruneTerms([['unknownword'], ['user']], get, 1000)).toEqual([['unknownword']]);
    // A small memory keeps every term: a word in 2 of its 3 chunks still tells them apart.
    expect(pruneTerms([['unknownword'], ['user']], () => 2, 3)).toEqual([['unknownword'], ['user']]);
  });
});
