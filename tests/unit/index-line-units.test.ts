/**
 * Fewer tokens for a real embedder with line vectors (index/line-vectors.ts): lines that say
 * nothing alone are not embedded, a line repeated in two notes (or in the overlap of two
 * chunks) is embedded once, and no chunk body is embedded at all — a chunk's vector is the
 * mean of its lines' — while a search still finds the note by its one meaningful line. An
 * index built with the old line units rebuilds once, from its embedding cache.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { EmbedOptions } from '../../electron/engine/embed/types';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';

/** The deterministic bag-of-words embedder, recording every text it is asked to embed. */
class RecordingEmbedder extends FakeEmbedder {
  readonly texts: string[] = [];
  override async embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]> {
    if (opts?.kind !== 'query') this.texts.push(...texts);
    return super.embed(texts, opts);
  }
}

// The query reaches the answer only through the embedder (synonyms), never through the
// keyword index: the vector side alone must find it.
const synonyms = { automobile: 'car', colour: 'color', hue: 'color' };
const shared = 'We went hiking near the lake on Saturday morning.';
const notes = {
  'workspace/memory/2024-03-01.md': [
    '# 2024-03-01',
    '',
    '## Chat with Ann',
    '**Ann:** Hi!',
    shared,
    '**Bob:** Great.',
    'My sister adopted two kittens from the shelter.',
    '- Ok.',
    'The car got a new color: teal.',
    'The bakery downtown sells excellent sourdough bread.',
    '**Ann:** Sure!',
    'Grandma taught me her recipe for plum dumplings.',
    '',
  ].join('\n'),
  'workspace/memory/2024-03-02.md': [
    '# 2024-03-02',
    '',
    shared,
    'The office moved to the third floor this spring.',
    'Our neighbours are renovating their kitchen again.',
    '',
  ].join('\n'),
};
const query = 'automobile colour';

function open(fx: ReturnType<typeof memoryFixture>, emb: RecordingEmbedder) {
  return fx.open({ embedder: emb, settings: settingsWith((s) => void (s.query.hybrid.lineVectors = 'on')) });
}

describe('line units a real embedder is asked to embed', () => {
  it('embeds each meaningful line once, no short line and no chunk body, and still finds the note by its one line', async () => {
    const fx = memoryFixture(notes);
    const emb = new RecordingEmbedder({ synonyms, provider: 'fake' });
    const idx = open(fx, emb);
    const r = await idx.sync();
    // Every meaningful line once — the line both notes hold included — and nothing else:
    // no "Hi!" / "Great." / "Ok." alone or merged into a neighbour, no heading, no body
    // (a body would carry the chunk's "Date: … · Section: …" context line and many lines).
    expect([...emb.texts].sort()).toEqual(
      [
        shared,
        'My sister adopted two kittens from the shelter.',
        'The car got a new color: teal.',
        'The bakery downtown sells excellent sourdough bread.',
        'Grandma taught me her recipe for plum dumplings.',
        'The office moved to the third floor this spring.',
        'Our neighbours are renovating their kitchen again.',
      ].sort(),
    );
    expect(r.embedded).toBe(7);

    const res = await idx.search({ query, minScore: 0, explain: true });
    expect(res.results[0]).toMatchObject({ path: 'memory/2024-03-01.md' });
    // Found by the vector side alone: the keyword side has no word of the query.
    expect(res.results[0]!.explain!.text).toBeNull();
    // A search for a line's words finds its note as before (keyword and vector sides).
    expect((await idx.search({ query: 'kitchen renovating neighbours', minScore: 0 })).results[0]?.path).toBe('memory/2024-03-02.md');
    await idx.dispose();
  });

  it('rebuilds an index made with the old line units once, re-embedding nothing it has cached', async () => {
    const fx = memoryFixture(notes);
    const first = new RecordingEmbedder({ synonyms, provider: 'fake' });
    const idx = open(fx, first);
    await idx.sync();
    await idx.dispose();
    // An index written before the line-unit rules had a version: its identity has no `lineUnits`.
    const db = new Database(fx.indexFile);
    const identity = JSON.parse(db.prepare("SELECT value FROM meta WHERE key = 'identity'").pluck().get() as string) as Record<string, unknown>;
    expect(identity.lineUnits).toBeDefined();
    delete identity.lineUnits;
    db.prepare("UPDATE meta SET value = ? WHERE key = 'identity'").run(JSON.stringify(identity));
    db.close();

    const emb = new RecordingEmbedder({ synonyms, provider: 'fake' });
    const again = open(fx, emb);
    expect(again.needsRebuild()).toBe(true);
    expect(await again.sync()).toMatchObject({ full: true, embedded: 0 });
    expect(again.needsRebuild()).toBe(false);
    expect(await again.sync()).toMatchObject({ full: false, embedded: 0 });
    expect((await again.search({ query, minScore: 0 })).results[0]?.path).toBe('memory/2024-03-01.md');
    expect(emb.texts).toEqual([]);
    await again.dispose();
  });

  it('turning line vectors off embeds the chunk bodies: the mean of the lines is not taken from the cache for a body', async () => {
    const fx = memoryFixture(notes);
    const idx = open(fx, new RecordingEmbedder({ synonyms, provider: 'fake' }));
    await idx.sync();
    await idx.dispose();
    const emb = new RecordingEmbedder({ synonyms, provider: 'fake' });
    const off = fx.open({ embedder: emb, settings: settingsWith((x) => void (x.query.hybrid.lineVectors = 'off')) });
    const r = await off.sync();
    expect(r).toMatchObject({ full: true });
    // Each chunk's body (its "Date: …" context line and its lines) is embedded now, once.
    expect(emb.texts.length).toBe(r.chunks);
    expect(emb.texts.every((t) => t.startsWith('Date: 2024-03-0'))).toBe(true);
    await off.dispose();
  });
});
