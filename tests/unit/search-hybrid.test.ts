import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import type { Embedder } from '../../electron/engine/embed/types';

const notes: Record<string, string> = {
  'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\nFavourite editor: neovim.\n',
  'workspace/memory/2024-01-10.md': '# Deploy\n\nDeployed commit a1b2c3d to production after the outage.\nThe gateway logged ECONNREFUSED 127.0.0.1:11434 twice.\n',
  'workspace/memory/2024-05-20.md': '# Budget\n\nThe Q3 budget review moved to Thursday.\nWe decided to migrate the database to Postgres.\n',
  'workspace/memory/2024-05-28.md': '# Database\n\nDecision: migrate the database to Postgres in June; keep SQLite for the desktop app.\n',
  'workspace/memory/2024-05-29.md': '# Database\n\nDecision: migrate the database to Postgres in June; keep SQLite for the desktop app!\n',
  'workspace/memory/2024-03-02.md': '## 会议记录\n\n我们讨论了明年的预算和发布计划。\n',
  'workspace/memory/2024-04-15.md': '## 打ち合わせ\n\n東京で新しいプロジェクトの会議がありました。\n',
  'workspace/memory/garden.md': '# Garden\n\nTomatoes need watering every morning.\nIrrigation script fixed in 9f8e7d6c5b4a39281706f5e4d3c2b1a098765432.\n',
};

describe('hybrid search', () => {
  it('returns results with path, lines, score, snippet, source, citation and explain', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    const res = await idx.search({ query: 'which commit did we deploy to production?', explain: true });
    expect(res.mode).toBe('hybrid');
    expect(res.embedder).toEqual({ provider: 'fake', model: 'bag-of-words-v1' });
    const top = res.results[0]!;
    expect(top).toMatchObject({ path: 'memory/2024-01-10.md', startLine: 3, endLine: 4, source: 'memory', citation: 'memory/2024-01-10.md#L3-L4' }); // without the heading block (search/ranges.ts)
    expect(top.snippet).toContain('a1b2c3d');
    expect(top.explain).toMatchObject({ decay: 1, mmrRank: null });
    expect(top.explain!.vector).toBeGreaterThan(0);
    expect(top.explain!.text).toBeGreaterThan(0);
    // Default weights 0.7/0.3 for a non-static embedder.
    expect(top.explain!.merged).toBeCloseTo(0.7 * top.explain!.vector! + 0.3 * top.explain!.text!, 10);
    expect(top.score).toBeCloseTo(top.explain!.merged, 10);
    await idx.dispose();
  });

  it('ranks exact tokens (hashes, error strings, addresses) first', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    for (const q of ['a1b2c3d', 'ECONNREFUSED', '127.0.0.1:11434']) {
      expect((await idx.search({ query: q, minScore: 0 })).results[0]?.path).toBe('memory/2024-01-10.md');
    }
    // A short hash finds the full one.
    expect((await idx.search({ query: 'revert 9f8e7d6', minScore: 0 })).results[0]?.path).toBe('memory/garden.md');
    await idx.dispose();
  });

  it('finds Chinese and Japanese text by CJK queries', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open();
    await idx.sync();
    const zh = await idx.search({ query: '预算', explain: true });
    expect(zh.results[0]?.path).toBe('memory/2024-03-02.md');
    expect(zh.results[0]?.explain?.text).toBeGreaterThan(0);
    expect((await idx.search({ query: '发布计划' })).results[0]?.path).toBe('memory/2024-03-02.md');
    expect((await idx.search({ query: '東京の会議' })).results[0]?.path).toBe('memory/2024-04-15.md');
    expect((await idx.search({ query: 'プロジェクト' })).results[0]?.path).toBe('memory/2024-04-15.md');
    // Found by its heading even though the chunk text is indexed with it as context.
    expect((await idx.search({ query: '打ち合わせ' })).results[0]?.path).toBe('memory/2024-04-15.md');
    await idx.dispose();
  });

  it('ORs the words of a sentence so a natural question still finds the note', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open();
    await idx.sync();
    const res = await idx.search({ query: 'what did we decide about moving our database last spring?' });
    expect(res.mode).toBe('fts-only');
    expect(res.embedder).toBeNull();
    expect(res.results.map((r) => r.path).slice(0, 3)).toEqual(expect.arrayContaining(['memory/2024-05-28.md', 'memory/2024-05-29.md']));
    await idx.dispose();
  });

  it('finds a chunk by its date in words (file-name date is indexed as context)', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open();
    await idx.sync();
    const res = await idx.search({ query: 'January 2024' });
    expect(res.results[0]?.path).toBe('memory/2024-01-10.md');
    await idx.dispose();
  });

  it('filters by --since / --before on the note date', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open();
    await idx.sync();
    const all = await idx.search({ query: 'database Postgres', minScore: 0 });
    expect(all.results.map((r) => r.path)).toContain('memory/2024-05-20.md');
    const since = await idx.search({ query: 'database Postgres', minScore: 0, since: '2024-05-28' });
    expect(since.results.map((r) => r.path).sort()).toEqual(['memory/2024-05-28.md', 'memory/2024-05-29.md']);
    const before = await idx.search({ query: 'database Postgres', minScore: 0, before: '2024-05-28' });
    expect(before.results.map((r) => r.path)).toEqual(['memory/2024-05-20.md']);
    await idx.dispose();
  });

  it('judges minScore before decay, falling back to keyword hits when nothing passes', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    // Decay on, half-life 1 day: old notes decay to ~0 but are still returned (reordered, not deleted).
    const fx2 = fx.open({
      embedder: new FakeEmbedder(),
      settings: settingsWith((s) => {
        s.query.hybrid.temporalDecay.halfLifeDays = 1;
        s.query.minScore = 0.35;
      }),
    });
    const res = await fx2.search({ query: 'migrate the database to Postgres', decay: true, explain: true });
    expect(res.results.length).toBeGreaterThanOrEqual(2);
    for (const r of res.results) {
      expect(r.explain!.merged).toBeGreaterThanOrEqual(0.35);
      expect(r.score).toBeCloseTo(r.explain!.merged * r.explain!.decay, 10);
      expect(r.explain!.decay).toBeLessThan(0.1);
    }
    // Newest first among near-equal relevance.
    expect(res.results[0]?.path).toBe('memory/2024-05-29.md');
    // Evergreen: MEMORY.md never decays.
    const pref = await fx2.search({ query: 'dark mode vim', decay: true, explain: true });
    expect(pref.results[0]).toMatchObject({ path: 'MEMORY.md', explain: { decay: 1 } });
    // Nothing reaches a high minScore: keyword hits ≥ min(minScore, textWeight) come back.
    const strict = await idx.search({ query: 'tomatoes', minScore: 0.99, explain: true });
    expect(strict.results.every((r) => r.explain!.text !== null)).toBe(true);
    await idx.dispose();
    await fx2.dispose();
  });

  it('MMR pushes a near-duplicate daily note below a different answer', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    const plain = await idx.search({ query: 'database Postgres June decision', minScore: 0, maxResults: 3 });
    expect(plain.results.slice(0, 2).map((r) => r.path).sort()).toEqual(['memory/2024-05-28.md', 'memory/2024-05-29.md']);
    await idx.dispose();
    const idx2 = fx.open({ embedder: new FakeEmbedder(), settings: settingsWith((s) => (s.query.hybrid.mmr.lambda = 0.5)) });
    const mmr = await idx2.search({ query: 'database Postgres June decision', minScore: 0, maxResults: 3, mmr: true, explain: true });
    expect(mmr.results.map((r) => r.explain!.mmrRank)).toEqual([1, 2, 3]);
    const second = mmr.results[1]!.path;
    expect(['memory/2024-05-28.md', 'memory/2024-05-29.md']).not.toContain(second);
    await idx2.dispose();
  });

  it('returns keyword results with a warning when the vector side fails', async () => {
    const fx = memoryFixture(notes);
    const emb = new FakeEmbedder();
    const idx = fx.open({ embedder: emb });
    await idx.sync();
    emb.failFromCall = emb.calls + 1;
    const res = await idx.search({ query: 'vim keybindings', explain: true });
    expect(res.mode).toBe('fts-only');
    expect(res.warnings.join(' ')).toMatch(/vector search failed.*service unavailable/);
    expect(res.results[0]).toMatchObject({ path: 'MEMORY.md', explain: { vector: null } });
    await idx.dispose();
  });

  it('returns vector results with a warning when the keyword side fails', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    // Break only the FTS table: the vector side must still answer.
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(fx.indexFile);
    db.exec('DROP TABLE chunks_fts');
    db.close();
    const res = await idx.search({ query: 'dark mode vim keybindings', minScore: 0 });
    expect(res.mode).toBe('vector-only');
    expect(res.warnings.join(' ')).toMatch(/keyword search failed/);
    expect(res.results[0]?.path).toBe('MEMORY.md');
    await idx.dispose();
  });

  it('the in-process cosine fallback (sqlite-vec not loadable) gives the same results, with a visible warning', async () => {
    const fx = memoryFixture(notes);
    const vec = fx.open({ embedder: new FakeEmbedder() });
    await vec.sync();
    const queries = ['deploy production commit', 'budget Thursday', 'dark mode', 'database Postgres June'];
    const expected: Awaited<ReturnType<typeof vec.search>>[] = [];
    for (const q of queries) expected.push(await vec.search({ query: q, minScore: 0, explain: true }));
    await vec.dispose();

    const broken = (): void => {
      throw new Error('cannot open shared object file vec0.so');
    };
    const fb = fx.open({ embedder: new FakeEmbedder(), loadVec: broken as (db: unknown) => void as never });
    expect((await fb.sync()).full).toBe(true); // vector storage changed: rebuilt
    expect((await fb.status()).vector).toBe('fallback');
    expect(fx.warnings.join(' ')).toMatch(/sqlite-vec could not be loaded.*vec0\.so.*Fix/);
    for (const [i, q] of queries.entries()) {
      const got = await fb.search({ query: q, minScore: 0, explain: true });
      expect(got.warnings.join(' ')).toMatch(/in-process cosine/);
      expect(got.results.map((r) => r.citation)).toEqual(expected[i]!.results.map((r) => r.citation));
      got.results.forEach((r, j) => expect(r.score).toBeCloseTo(expected[i]!.results[j]!.score, 5));
    }
    await fb.dispose();
  });

  it('a search in flight while a rebuild swaps the index still answers', async () => {
    const fx = memoryFixture(notes);
    const emb = new FakeEmbedder();
    const idx = fx.open({ embedder: emb });
    await idx.sync();
    // Hold the query's embed call until the rebuild has replaced the file.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const embed = emb.embed.bind(emb);
    let first = true;
    emb.embed = async (texts, o) => {
      if (first) {
        first = false;
        await gate;
      }
      return embed(texts, o);
    };
    const pending = idx.search({ query: 'vim keybindings' });
    expect((await idx.sync({ force: true })).full).toBe(true);
    release();
    const res = await pending;
    expect(res.results[0]?.path).toBe('MEMORY.md');
    // No warning about the swap (the minScore cut may state its reason).
    expect(res.warnings.filter((w) => !w.includes('minScore'))).toEqual([]);
    await idx.dispose();
  });

  it('a query vector of another size (embedder changed under a stale index) degrades to keyword search', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    await idx.dispose();
    const other: Embedder = new FakeEmbedder({ model: 'other', dims: 16 });
    const stale = fx.open({ embedder: other });
    const res = await stale.search({ query: 'tomatoes' });
    expect(res.results[0]?.path).toBe('memory/garden.md');
    await stale.dispose();
  });
});
