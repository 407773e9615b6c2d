/**
 * Line vectors with max-sim per chunk (issue 13, "turn isolation"): a chunk whose one line
 * answers the question outranks a chunk whose words merely overlap all over; line vectors
 * are cached like chunk vectors (an edit embeds only new lines, a rebuild none); an index
 * built without them upgrades by a rebuild that re-embeds no chunk.
 */
import Database from 'better-sqlite3';
import { openDatabase } from '../../electron/engine/index/db';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { hasLineTables, lineUnits } from '../../electron/engine/index/line-vectors';
import { knnWorkerReady } from '../../electron/engine/search/index-search';

// The query's words reach the notes only through the embedder (synonyms), never through
// the keyword index: the order below is the vector side's alone.
const synonyms = { automobile: 'car', colour: 'color', hue: 'color' };
const filler = [
  'We went hiking near the lake on Saturday morning.',
  'My sister adopted two kittens from the shelter.',
  'The bakery downtown sells excellent sourdough bread.',
  'I finally finished reading that long history book.',
  'Our neighbours are renovating their kitchen again.',
  'The concert last night was loud but really fun.',
  'Grandma taught me her recipe for plum dumplings.',
  'I have been practising guitar every evening lately.',
  'The office moved to the third floor this spring.',
  'We planted tulips and daffodils along the fence.',
  'My cousin is studying marine biology in Lisbon.',
  'The train was delayed by an hour because of snow.',
];
const notes = {
  // One turn answers ("the car ... color"), diluted by twelve about other things.
  'workspace/memory/2024-03-01.md': `# 2024-03-01\n\n${filler.slice(0, 6).join('\n')}\nThe car got a new color: teal.\n${filler.slice(6).join('\n')}\n`,
  // Both words, but each in a different line about something else, in a short note.
  'workspace/memory/2024-03-02.md': '# 2024-03-02\n\nWe took the car to the wash on Main Street yesterday.\nThe designer sent a color palette for the website.\n',
};
const query = 'automobile colour';

function open(lineVectors: 'on' | 'off', o: { loadVec?: false } = {}) {
  const settings = settingsWith((s) => {
    s.query.hybrid.lineVectors = lineVectors;
  });
  const fx = memoryFixture(notes, settings);
  const emb = new FakeEmbedder({ synonyms, provider: 'fake' });
  return { fx, emb, idx: fx.open({ embedder: emb, ...o }) };
}

/** Rows of a table (sqlite-vec loaded, for `lines_vec`). */
function count(file: string, table: string): number {
  const { db } = openDatabase(file, { readonly: true });
  try {
    return db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('line vectors (max-sim per chunk)', () => {
  it('ranks the note whose one line answers above the note with scattered overlap', async () => {
    const on = open('on');
    await on.idx.sync();
    const res = await on.idx.search({ query, minScore: 0, explain: true });
    expect(res.mode).toBe('hybrid');
    expect(res.results.map((r) => r.path)).toEqual(['memory/2024-03-01.md', 'memory/2024-03-02.md']);
    // The keyword side found nothing: the vector side alone put the answer first.
    expect(res.results[0]!.explain!.text).toBeNull();
    // It cites the line that answers (line 9) with the line on either side, not the twelve
    // lines about other things around it (search/match-span.ts): their meaning is known, and
    // far from the question's.
    expect(res.results[0]).toMatchObject({ startLine: 8, endLine: 10, citation: 'memory/2024-03-01.md#L8-L10' });
    await on.idx.dispose();

    // Without line vectors the averaged chunk vector dilutes the answer: the order flips.
    const off = open('off');
    await off.idx.sync();
    const plain = await off.idx.search({ query, minScore: 0 });
    expect(plain.results[0]?.path).toBe('memory/2024-03-02.md');
    await off.idx.dispose();
  });

  it('ranks a chunk close as a whole above a chunk with the nearest single line (the mean of both decides)', async () => {
    // A: the nearest single line, in a note about other things. B: every line is about the
    // car's colour, none quite as close as A's line alone. Mixed (best line + chunk) B wins.
    const fx = memoryFixture(
      {
        'workspace/memory/2024-04-01.md': `# 2024-04-01\n\n${filler.join("\n")}\nCar, hue, car, color: the car and its color, car hue.\n`,
        'workspace/memory/2024-04-02.md':
          '# 2024-04-02\n\nCar color, car color, teal paint, car color, chipped.\nCar color, car color, new paint, car color, glossy.\n',
      },
      settingsWith((s) => {
        s.query.hybrid.lineVectors = 'on';
        s.query.hybrid.candidateMultiplier = 1;
      }),
    );
    const idx = fx.open({ embedder: new FakeEmbedder({ synonyms, provider: 'fake' }) });
    await idx.sync();
    const res = await idx.search({ query, maxResults: 1, minScore: 0 });
    expect(res.results.map((r) => r.path)).toEqual(['memory/2024-04-02.md']);
    await idx.dispose();
  });

  it('ranks the same way without sqlite-vec (the in-process scan of the fallback tables)', async () => {
    const { idx } = open('on', { loadVec: false });
    await idx.sync();
    expect((await idx.status()).vector).toBe('fallback');
    const res = await idx.search({ query, minScore: 0 });
    expect(res.results[0]?.path).toBe('memory/2024-03-01.md');
    await idx.dispose();
  });

  it('runs the chunk KNN on the KNN worker thread once it is up, re-scored by lines the same way', async () => {
    const settings = settingsWith((s) => {
      s.query.hybrid.lineVectors = 'on';
    });
    const fx = memoryFixture(notes, settings);
    const idx = fx.open({ embedder: new FakeEmbedder({ synonyms, provider: 'fake' }), knnWorkerMinChunks: 0 });
    await idx.sync();
    const first = await idx.search({ query, minScore: 0, explain: true });
    await idx.search({ query: 'hiking near the lake', minScore: 0 });
    expect(await knnWorkerReady(idx)).toBe(true);
    const again = await idx.search({ query, minScore: 0, explain: true });
    expect(again.results).toEqual(first.results);
    expect(again.results[0]?.path).toBe('memory/2024-03-01.md');
    await idx.dispose();
  });

  it('embeds each line once: an edit embeds only its new lines, a rebuild nothing', async () => {
    const { fx, emb, idx } = open('on');
    const first = await idx.sync();
    const units = Object.values(notes).reduce((n, t) => n + new Set(lineUnits(t)).size, 0);
    // Every line unit, no chunk body (a chunk's vector is the mean of its lines').
    expect(first.embedded).toBe(units);
    expect(count(fx.indexFile, 'chunk_lines')).toBe(units);
    const before = emb.textsEmbedded;
    fs.appendFileSync(path.join(fx.workspace, 'memory/2024-03-02.md'), 'The automobile club meets on Fridays at the garage.\n');
    const second = await idx.sync();
    // The changed chunk's one new line; its two old lines came from the cache.
    expect(second).toMatchObject({ full: false, embedded: 1 });
    expect(emb.textsEmbedded - before).toBe(1);
    expect(count(fx.indexFile, 'chunk_lines')).toBe(units + 1);
    // A forced rebuild carries every cached vector over: nothing is embedded again.
    expect(await idx.sync({ force: true })).toMatchObject({ full: true, embedded: 0 });
    expect(count(fx.indexFile, 'chunk_lines')).toBe(units + 1);
    // A deleted note takes its line vectors with it.
    fs.rmSync(path.join(fx.workspace, 'memory/2024-03-01.md'));
    await idx.sync();
    expect(count(fx.indexFile, 'chunk_lines')).toBe(3);
    expect(count(fx.indexFile, 'lines_vec')).toBe(3);
    await idx.dispose();
  });

  it('upgrades an index built without line vectors by one rebuild that re-embeds no chunk', async () => {
    const old = open('off');
    await old.idx.sync();
    await old.idx.dispose();
    const db = new Database(old.fx.indexFile, { readonly: true });
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('chunk_lines', 'lines_vec')").all()).toEqual([]);
    db.close();

    const emb = new FakeEmbedder({ synonyms, provider: 'fake' });
    const settings = settingsWith((s) => {
      s.query.hybrid.lineVectors = 'on';
    });
    const idx = old.fx.open({ embedder: emb, settings });
    expect(idx.needsRebuild()).toBe(true);
    const r = await idx.sync();
    const units = Object.values(notes).reduce((n, t) => n + new Set(lineUnits(t)).size, 0);
    // Only the line units are new; both chunk vectors came from the old index's cache.
    expect(r).toMatchObject({ full: true, embedded: units });
    const res = await idx.search({ query, minScore: 0 });
    expect(res.results[0]?.path).toBe('memory/2024-03-01.md');
    expect(res.warnings).toEqual([]);
    await idx.dispose();
  });

  it('keeps line vectors by default for local GGUF embedders only (auto)', async () => {
    for (const [provider, lines] of [['local', true], ['static', false], ['openai', false]] as const) {
      const fx = memoryFixture(notes);
      const idx = fx.open({ embedder: new FakeEmbedder({ synonyms, provider }) });
      await idx.sync();
      const { db } = openDatabase(fx.indexFile, { readonly: true });
      expect([provider, hasLineTables(db)]).toEqual([provider, lines]);
      db.close();
      await idx.dispose();
    }
  });

  it('makes line units of dialogue turns, leaving headings and turns that say nothing alone out', () => {
    expect(lineUnits('# 2024-03-01\n\n## Session 1\n**Ann:** Hi!\n**Bob:** Hey, how was the trip to the coast last week?\n**Ann:** Great.')).toEqual([
      '**Bob:** Hey, how was the trip to the coast last week?',
    ]);
    expect(lineUnits('## Only a heading')).toEqual(['## Only a heading']);
  });
});
