/**
 * Index files are written with 64 KB pages (db.ts PAGE_SIZE); an index written by an older
 * Cairn with 4 KB pages cannot take SQLite's online backup (a WAL file's page size is
 * fixed): the file leaves WAL mode for the copy when nobody else has it open, else the
 * rebuild is swapped in by rename — the upgrade must not fail either way, and search must
 * answer from the new index.
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { filePageSize, PAGE_SIZE } from '../../electron/engine/index/db';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture } from '../helpers/memory-fixture';

const notes = {
  'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\n',
  'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed commit a1b2c3d to production.\n',
};

/** An index as an older Cairn left it: built, then rewritten with 4 KB pages. */
async function smallPageIndex() {
  const fx = memoryFixture(notes);
  const first = fx.open({ embedder: new FakeEmbedder() });
  await first.sync();
  await first.dispose();
  const db = new Database(fx.indexFile);
  db.pragma('journal_mode = DELETE');
  db.pragma('page_size = 4096');
  db.exec('VACUUM');
  db.pragma('journal_mode = WAL');
  db.close();
  expect(filePageSize(fx.indexFile)).toBe(4096);
  return fx;
}

describe('index page size', () => {
  it('a new index file has 64 KB pages', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    await idx.sync();
    await idx.dispose();
    expect(filePageSize(fx.indexFile)).toBe(PAGE_SIZE);
  });

  it('an index with 4 KB pages is rebuilt with 64 KB pages, and search answers from it', async () => {
    const fx = await smallPageIndex();
    const inode = fs.statSync(fx.indexFile).ino;
    const idx = fx.open({ embedder: new FakeEmbedder() });
    const res = await idx.sync({ force: true });
    expect(res.full).toBe(true);
    expect(filePageSize(fx.indexFile)).toBe(PAGE_SIZE);
    // Nobody else had it open: copied into the same file (online backup), not replaced.
    expect(fs.statSync(fx.indexFile).ino).toBe(inode);
    const hits = await idx.search({ query: 'which commit went to production', minScore: 0 });
    expect(hits.results[0]?.citation).toBe('memory/2024-05-08.md#L3-L3'); // the heading is not cited (search/ranges.ts)
    await idx.dispose();
  });

  it('with another connection open on the 4 KB file, the rebuild is swapped in by rename and still succeeds', async () => {
    const fx = await smallPageIndex();
    const other = new Database(fx.indexFile, { readonly: true }); // e.g. `cairn mcp` in another process
    other.prepare('SELECT COUNT(*) FROM chunks').get();
    const inode = fs.statSync(fx.indexFile).ino;

    const idx = fx.open({ embedder: new FakeEmbedder() });
    expect((await idx.sync({ force: true })).full).toBe(true);
    expect(fs.statSync(fx.indexFile).ino).not.toBe(inode); // a new file
    expect(filePageSize(fx.indexFile)).toBe(PAGE_SIZE);
    expect((await idx.search({ query: 'dark mode', minScore: 0 })).results[0]?.path).toBe('MEMORY.md');
    other.close();
    await idx.dispose();
  });

  it('filePageSize is null for a file that is not a database', () => {
    expect(filePageSize(__filename)).toBeNull();
    expect(filePageSize('/nonexistent/index.sqlite')).toBeNull();
  });
});
