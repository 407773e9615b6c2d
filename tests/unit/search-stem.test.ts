/**
 * The stemmed keyword table (issue 13 item 1, search/lexical.ts): "camped" finds "camping",
 * exact tokens still rank first, a stem-only match never outranks the vectors' paraphrase
 * answer, and an index built before the table existed keeps answering and is rebuilt.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { lexicalCandidates, STEM_POSTINGS_BUDGET } from '../../electron/engine/search/lexical';
import { POSTINGS_BUDGET, pruneTerms } from '../../electron/engine/search/fts-query';

const camping: Record<string, string> = {
  'workspace/memory/2024-05-02.md': '# Weekend\n\nWe camped by the lake with the kids and roasted marshmallows.\n',
  'workspace/memory/2024-05-09.md': '# Gear\n\nCamping gear list: tent, stove, two sleeping bags.\n',
  'workspace/memory/2024-05-12.md': '# Work\n\nThe quarterly report is due on Friday.\n',
};

describe('stemmed keyword search', () => {
  it('finds a note by another form of the word (camp → camped, camping)', async () => {
    const fx = memoryFixture(camping);
    const idx = fx.open();
    await idx.sync();
    const res = await idx.search({ query: 'where did we camp?', minScore: 0 });
    expect(res.mode).toBe('fts-only');
    expect(res.results.map((r) => r.path).sort()).toEqual(['memory/2024-05-02.md', 'memory/2024-05-09.md']);
    await idx.dispose();
  });

  it('ranks the exact word above a stem-only match', async () => {
    const fx = memoryFixture(camping);
    const idx = fx.open();
    await idx.sync();
    for (const [q, first] of [
      ['camping', 'memory/2024-05-09.md'],
      ['camped', 'memory/2024-05-02.md'],
    ] as const) {
      const res = await idx.search({ query: q, minScore: 0, explain: true });
      expect(res.results.map((r) => r.path)).toEqual([first, first === 'memory/2024-05-09.md' ? 'memory/2024-05-02.md' : 'memory/2024-05-09.md']);
      expect(res.results[0]!.explain!.text!).toBeGreaterThan(res.results[1]!.explain!.text!);
    }
    await idx.dispose();
  });

  it('does not let a stem-only match outrank the vector side’s paraphrase answer', async () => {
    const fx = memoryFixture({
      'workspace/memory/2024-04-01.md': '# Travel\n\nPortugal has wonderful beaches and cheap trains.\n',
      'workspace/memory/2024-04-02.md': '# Lisbon\n\nBooked the October journey itinerary: flights to Lisbon.\n',
      'workspace/memory/2024-04-03.md': '# Garden\n\nPlanned the raised beds for tomatoes.\n',
    });
    // The static embedder's weights (0.2 vector / 0.8 keyword) make the keyword side loud.
    const embedder = new FakeEmbedder({ provider: 'static', synonyms: { journey: 'trip', itinerary: 'plans', lisbon: 'portugal' } });
    const idx = fx.open({ embedder });
    await idx.sync();
    const res = await idx.search({ query: 'Portugal trip plans', minScore: 0, explain: true });
    const paths = res.results.map((r) => r.path);
    expect(paths.indexOf('memory/2024-04-02.md')).toBeGreaterThanOrEqual(0);
    // "Planned" shares only a stem with "plans": it may follow, never lead the paraphrase.
    const garden = paths.indexOf('memory/2024-04-03.md');
    if (garden >= 0) expect(garden).toBeGreaterThan(paths.indexOf('memory/2024-04-02.md'));
    await idx.dispose();
  });

  it('answers from an index built before the stemmed table existed, and rebuilds it on sync', async () => {
    const fx = memoryFixture(camping);
    let idx = fx.open();
    await idx.sync();
    await idx.dispose();
    // What schema 5 wrote: no stemmed table, no triggers, identity schema 5.
    const db = new Database(fx.indexFile);
    db.exec('DROP TRIGGER IF EXISTS chunks_stem_insert; DROP TRIGGER IF EXISTS chunks_stem_delete; DROP TABLE chunks_fts_stem;');
    const identity = JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'identity'").pluck().get() as string) as { schema: number };
    db.prepare("UPDATE meta SET value = ? WHERE key = 'identity'").run(JSON.stringify({ ...identity, schema: 5 }));
    // The keyword side of such an index still answers, by exact tokens.
    const old = lexicalCandidates(db, 'camping', 10, { sources: ['memory'] }, { calibration: 'relative', stemWeight: 0.5 });
    expect(old).toHaveLength(1);
    db.close();

    idx = fx.open();
    expect((await idx.sync()).full).toBe(true);
    const res = await idx.search({ query: 'where did we camp?', minScore: 0 });
    expect(res.results).toHaveLength(2);
    await idx.dispose();
    const after = new Database(fx.indexFile, { readonly: true });
    // The bulk rebuild paused FTS5's merging on both tables and put the defaults back.
    const conf = after.prepare("SELECT k, v FROM chunks_fts_stem_config WHERE k IN ('automerge', 'crisismerge') ORDER BY k").all();
    expect(conf).toEqual([{ k: 'automerge', v: 4 }, { k: 'crisismerge', v: 16 }]);
    after.close();
  });

  it('scores the vectors on their own when no query word matches exactly (no silent minScore cut)', async () => {
    const fx = memoryFixture({
      'workspace/memory/2024-04-02.md': '# Travel\n\nThe trip to the coast: trains, a ferry, three hotels, rain on the second day, sun on the third.\n',
    });
    const embedder = new FakeEmbedder({ provider: 'static', synonyms: { voyage: 'trip' } });
    const idx = fx.open({ embedder });
    await idx.sync();
    // "voyage" is in no note; the vectors (weight 0.2) found the trip at cosine ≈ 0.3, which
    // weighted down fell under the default minScore 0.1 and the answer was empty.
    const res = await idx.search({ query: 'voyage', explain: true });
    expect(res.mode).toBe('hybrid');
    expect(res.results.map((r) => r.path)).toEqual(['memory/2024-04-02.md']);
    expect(res.results[0]!.score).toBeCloseTo(res.results[0]!.explain!.vector!, 10);
    expect(res.warnings).toEqual([]);
    await idx.dispose();
  });

  it('bounds the stemmed query by a smaller postings budget (a stem has more postings than its word)', () => {
    const df: Record<string, number> = { tent: 100, lake: 2_000, camp: 4_000 };
    const terms = [['tent'], ['lake'], ['camp']];
    expect(pruneTerms(terms, (t) => df[t[0]!], 100_000)).toEqual(terms);
    expect(STEM_POSTINGS_BUDGET).toBeLessThan(POSTINGS_BUDGET);
    expect(pruneTerms(terms, (t) => df[t[0]!], 100_000, STEM_POSTINGS_BUDGET)).toEqual([['tent'], ['lake']]);
  });

  it('searches exact tokens only with stemWeight 0', async () => {
    const fx = memoryFixture(camping, settingsWith((s) => (s.query.hybrid.stemWeight = 0)));
    const idx = fx.open();
    await idx.sync();
    expect((await idx.search({ query: 'where did we camp?', minScore: 0 })).results).toEqual([]);
    await idx.dispose();
  });
});
