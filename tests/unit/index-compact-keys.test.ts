/**
 * Issue 40 item 1, schema 11: the float copies are keyed by an embedder id and the 32-byte
 * hash (vector-cache.ts), chunks name their copy by its row id and no longer repeat the
 * text's hash or the model's name. An index of schema 10 (text keys in every row) is rebuilt
 * once with every vector carried over — nothing embedded again — and answers as before.
 */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/engine/index/db';
import { readIdentity, SCHEMA_VERSION } from '../../electron/engine/index/schema';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { PREVIOUS_SCHEMA, rewriteAsPreviousSchema } from '../helpers/old-index';
import { writeTree } from '../helpers/tmp';

const NOTES = {
  'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\n',
  'workspace/memory/2024-05-20.md': '# Budget\n\nThe Q3 budget review moved to Thursday.\nWe decided to migrate the database to Postgres.\n',
  'workspace/memory/garden.md': '# Garden\n\nTomatoes need watering every morning.\n',
};

function columns(file: string, table: string): string[] {
  const { db } = openDatabase(file, { readonly: true });
  try {
    return db.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe('compact embedding-cache keys', () => {
  it('keeps one 32-byte key per cached vector and the embedder once', async () => {
    const fx = memoryFixture(NOTES);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    await idx.dispose();
    expect(columns(fx.indexFile, 'chunks')).not.toContain('hash');
    expect(columns(fx.indexFile, 'chunks')).not.toContain('model');
    const { db } = openDatabase(fx.indexFile, { readonly: true });
    try {
      const keys = db.prepare('SELECT hash FROM embedding_cache').pluck().all() as Buffer[];
      expect(keys.length).toBeGreaterThan(2);
      for (const k of keys) expect(k.byteLength).toBe(32);
      expect(db.prepare('SELECT COUNT(*) FROM embedders').pluck().get()).toBe(1);
      // Every chunk names a cached vector.
      expect(db.prepare('SELECT COUNT(*) FROM chunks c LEFT JOIN embedding_cache e ON e.id = c.embed_id WHERE e.id IS NULL').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('rebuilds a schema-10 index once, embedding nothing, with the same results', async () => {
    const fx = memoryFixture(NOTES);
    let idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    const req = { query: 'database migration decision', maxResults: 5, minScore: 0 };
    const before = (await idx.search(req)).results.map((r) => [r.path, r.startLine, r.score]);
    expect(before.length).toBeGreaterThan(0);
    await idx.dispose();
    rewriteAsPreviousSchema(fx.indexFile);
    expect(columns(fx.indexFile, 'embedding_cache')).toContain('provider');

    const counting = new FakeEmbedder();
    idx = fx.open({ embedder: counting });
    try {
      const res = await idx.sync();
      expect(res.full).toBe(true);
      expect(counting.textsEmbedded).toBe(0);
      expect(readIdentity(idx.snapshot()!.db)?.schema).toBe(SCHEMA_VERSION);
      expect((await idx.search(req)).results.map((r) => [r.path, r.startLine, r.score])).toEqual(before);
      // The carried cache answers later syncs too: an unchanged chunk beside an edit is not embedded.
      writeTree(fx.root, { 'workspace/memory/garden.md': '# Garden\n\nTomatoes need watering every morning.\n\nBasil too.\n' });
      const embedded = counting.textsEmbedded;
      await idx.sync();
      expect(counting.textsEmbedded - embedded).toBeLessThan(2);
    } finally {
      await idx.dispose();
    }
    expect(PREVIOUS_SCHEMA).toBe(SCHEMA_VERSION - 1);
  });

  it('a capped cache drops the entries no chunk needs, by their time of use', async () => {
    const notes: Record<string, string> = {};
    for (let d = 1; d <= 6; d++) notes[`workspace/memory/2024-05-0${d}.md`] = `# Day ${d}\n\nNotes of day ${d}: the kayak and the garden.\n`;
    const fx = memoryFixture(notes, settingsWith((s) => void (s.cache.maxEntries = 1)));
    const idx = fx.open({ embedder: new FakeEmbedder() });
    try {
      await idx.sync();
      writeTree(fx.root, { 'workspace/memory/2024-05-01.md': '# Day 1\n\nRewritten.\n' });
      await idx.sync();
      const db = idx.snapshot()!.db;
      const live = db.prepare('SELECT COUNT(DISTINCT embed_id) FROM chunks').pluck().get() as number;
      expect(db.prepare('SELECT COUNT(*) FROM embedding_cache').pluck().get()).toBe(live);
    } finally {
      await idx.dispose();
    }
  });
});
