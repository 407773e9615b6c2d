import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import type { SyncProgress } from '../../electron/engine/index/sync';

const notes = {
  'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\n',
  'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed commit a1b2c3d to production.\n',
  'workspace/memory/2024-05-20.md': '# Budget\n\nThe Q3 budget review moved to Thursday.\n',
  'workspace/memory/projects/garden.md': '# Garden\n\nTomatoes need watering every morning.\n',
  'workspace/notes-outside.md': 'not a memory file\n',
};

function rows(file: string, sql: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

describe('index sync', () => {
  it('indexes MEMORY.md and memory/**/*.md (nothing else) into one SQLite file per agent', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open({ embedder: new FakeEmbedder() });
    const r = await idx.sync();
    expect(r).toMatchObject({ files: 4, chunks: 4, embedded: 4, mode: 'hybrid', full: true });
    expect(fs.existsSync(fx.indexFile)).toBe(true);
    const paths = rows(fx.indexFile, 'SELECT path FROM files ORDER BY path').map((x) => (x as { path: string }).path);
    expect(paths).toEqual(['MEMORY.md', 'memory/2024-05-08.md', 'memory/2024-05-20.md', 'memory/projects/garden.md']);
    expect(rows(fx.indexFile, "SELECT name FROM sqlite_master WHERE name IN ('meta','files','chunks','chunks_fts','chunks_vec','embedding_cache') ORDER BY name")).toHaveLength(6);
    expect(await idx.status()).toMatchObject({ files: 4, chunks: 4, dirty: false, vector: 'vec0', embedder: { provider: 'fake' } });
    await idx.dispose();
  });

  it('re-chunks only the file whose content changed, and reuses cached embeddings', async () => {
    const fx = memoryFixture(notes);
    const emb = new FakeEmbedder();
    const idx = fx.open({ embedder: emb });
    await idx.sync();
    const before = emb.textsEmbedded;
    expect(await idx.isDirty()).toBe(false);
    fs.appendFileSync(path.join(fx.workspace, 'memory/2024-05-20.md'), '\nAlso: hire a designer.\n');
    expect(await idx.isDirty()).toBe(true);
    const r = await idx.sync();
    expect(r).toMatchObject({ full: false, embedded: 1, files: 4, chunks: 4 });
    expect(emb.textsEmbedded - before).toBe(1);
    const res = await idx.search({ query: 'hire a designer', minScore: 0 });
    expect(res.results[0]?.path).toBe('memory/2024-05-20.md');
    // Touching a file without changing it re-reads nothing into the index.
    const f = path.join(fx.workspace, 'MEMORY.md');
    fs.utimesSync(f, new Date(), new Date(Date.now() + 5000));
    expect((await idx.sync()).embedded).toBe(0);
    // A deleted file disappears from the index.
    fs.rmSync(path.join(fx.workspace, 'memory/projects/garden.md'));
    expect(await idx.sync()).toMatchObject({ files: 3, chunks: 3 });
    expect((await idx.search({ query: 'tomatoes watering', minScore: 0 })).results.map((x) => x.path)).not.toContain('memory/projects/garden.md');
    await idx.dispose();
  });

  it('writes a very large file in steps and replaces all of its chunks on the next change', async () => {
    const big = Array.from({ length: 3000 }, (_, i) => `- note ${i}: ${i === 2999 ? 'the last line mentions a narwhal' : 'ordinary filler text for the long-term memory'}`).join('\n');
    const fx = memoryFixture({ 'workspace/MEMORY.md': big });
    const idx = fx.open({ embedder: new FakeEmbedder() });
    const first = await idx.sync();
    expect(first.chunks).toBeGreaterThan(100);
    expect((await idx.search({ query: 'narwhal' })).results[0]).toMatchObject({ path: 'MEMORY.md', endLine: 3000 });
    fs.writeFileSync(path.join(fx.workspace, 'MEMORY.md'), big.replace('narwhal', 'walrus'));
    const second = await idx.sync();
    expect(second.chunks).toBe(first.chunks);
    expect((await idx.search({ query: 'narwhal' })).results).toEqual([]);
    expect((await idx.search({ query: 'walrus' })).results[0]?.path).toBe('MEMORY.md');
    expect(rows(fx.indexFile, 'SELECT hash FROM files')).toHaveLength(1);
    expect(await idx.isDirty()).toBe(false);
    await idx.dispose();
  });

  it('a corrupt index file is moved aside with a warning and rebuilt from the memory files', async () => {
    const fx = memoryFixture(notes);
    fs.mkdirSync(path.dirname(fx.indexFile), { recursive: true });
    fs.writeFileSync(fx.indexFile, 'this is not a database '.repeat(100));
    const idx = fx.open();
    expect(fx.warnings.join(' ')).toMatch(/could not be read .*moved to .*\.corrupt-\d+, rebuilding/);
    expect((await idx.status()).exists).toBe(false);
    expect(await idx.sync()).toMatchObject({ files: 4, full: true });
    expect((await idx.search({ query: 'tomatoes' })).results[0]?.path).toBe('memory/projects/garden.md');
    expect(fs.readdirSync(path.dirname(fx.indexFile)).some((f) => f.includes('.corrupt-'))).toBe(true);
    await idx.dispose();
  });

  it('skips symlinks (files and directories)', async () => {
    const fx = memoryFixture({ ...notes, 'outside/secret.md': 'top secret launch codes\n' });
    fs.symlinkSync(path.join(fx.root, 'outside/secret.md'), path.join(fx.workspace, 'memory/link.md'));
    fs.symlinkSync(path.join(fx.root, 'outside'), path.join(fx.workspace, 'memory/linked-dir'));
    const idx = fx.open();
    expect((await idx.sync()).files).toBe(4);
    expect((await idx.search({ query: 'launch codes' })).results).toEqual([]);
    await idx.dispose();
  });

  it('indexes extraPaths', async () => {
    const fx = memoryFixture({ ...notes, 'workspace/docs/runbook.md': '# Runbook\n\nRestart the gateway with systemctl.\n' }, settingsWith((s) => (s.extraPaths = ['docs'])));
    const idx = fx.open();
    await idx.sync();
    expect((await idx.search({ query: 'systemctl gateway' })).results[0]?.path).toBe('docs/runbook.md');
    await idx.dispose();
  });

  it('reindexes everything when the embedding model changes (old index kept until the new one is done)', async () => {
    const fx = memoryFixture(notes);
    const a = fx.open({ embedder: new FakeEmbedder({ model: 'model-a' }) });
    await a.sync();
    await a.dispose();
    const embB = new FakeEmbedder({ model: 'model-b', dims: 32 });
    const b = fx.open({ embedder: embB });
    expect(await b.isDirty()).toBe(true);
    const r = await b.sync();
    expect(r).toMatchObject({ full: true, embedded: 4 });
    expect(rows(fx.indexFile, "SELECT json_extract(value, '$.model') AS model FROM meta WHERE key = 'identity'")).toEqual([{ model: 'model-b' }]);
    expect((await b.search({ query: 'dark mode', explain: true })).results[0]?.explain?.vector).not.toBeNull();
    await b.dispose();
    // Chunking changes rebuild too, but reuse the cached vectors of the same model.
    const embedded = embB.textsEmbedded;
    const c = fx.open({ embedder: embB, settings: settingsWith((s) => (s.chunking.tokens = 200)) });
    expect(await c.sync()).toMatchObject({ full: true, embedded: 0 });
    expect(embB.textsEmbedded).toBe(embedded);
    await c.dispose();
  });

  it('a connection opened before a rebuild (another process, e.g. cairn mcp) sees the new index, in WAL mode', async () => {
    const fx = memoryFixture(notes);
    const a = fx.open({ embedder: new FakeEmbedder({ model: 'model-a' }) });
    await a.sync();
    await a.dispose();
    const other = new Database(fx.indexFile, { readonly: true });
    expect(other.prepare("SELECT json_extract(value, '$.model') AS model FROM meta WHERE key = 'identity'").all()).toEqual([{ model: 'model-a' }]);
    const b = fx.open({ embedder: new FakeEmbedder({ model: 'model-b' }) });
    expect((await b.sync()).full).toBe(true);
    expect(other.prepare("SELECT json_extract(value, '$.model') AS model FROM meta WHERE key = 'identity'").all()).toEqual([{ model: 'model-b' }]);
    other.close();
    expect(rows(fx.indexFile, 'PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(fs.readdirSync(path.dirname(fx.indexFile)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    await b.dispose();
  });

  it('a failed full reindex keeps the old index searchable and leaves no temp files', async () => {
    const fx = memoryFixture(notes);
    const good = fx.open({ embedder: new FakeEmbedder({ model: 'model-a' }) });
    await good.sync();
    await good.dispose();
    const failing = fx.open({ embedder: new FakeEmbedder({ model: 'model-b', failFromCall: 1 }) });
    await expect(failing.sync()).rejects.toThrow(/service unavailable/);
    expect(rows(fx.indexFile, "SELECT json_extract(value, '$.model') AS model FROM meta WHERE key = 'identity'")).toEqual([{ model: 'model-a' }]);
    expect(rows(fx.indexFile, 'SELECT COUNT(*) n FROM chunks')).toEqual([{ n: 4 }]);
    expect(fs.readdirSync(path.dirname(fx.indexFile)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    // Still answers (keyword side) while the new embedder is down, with a warning.
    const res = await failing.search({ query: 'vim keybindings' });
    expect(res.results[0]?.path).toBe('MEMORY.md');
    expect(res.warnings.join(' ')).toMatch(/another embedder/);
    await failing.dispose();
  });

  it('a cancelled rebuild keeps the old index', async () => {
    const many: Record<string, string> = { ...notes };
    for (let i = 1; i <= 28; i++) many[`workspace/memory/2024-04-${String(i).padStart(2, '0')}.md`] = `# Day ${i}\n\n${'note '.repeat(400)}\n`;
    const fx = memoryFixture(many);
    const first = fx.open();
    await first.sync();
    const ac = new AbortController();
    const seen: SyncProgress[] = [];
    const p = first.sync({
      force: true,
      signal: ac.signal,
      onProgress: (x) => {
        seen.push(x);
        if (x.phase === 'embed') ac.abort();
      },
    });
    await expect(p).rejects.toThrow(/cancelled/);
    expect(seen.length).toBeGreaterThan(0);
    expect(rows(fx.indexFile, 'SELECT COUNT(*) n FROM files')).toEqual([{ n: 32 }]);
    expect((await first.search({ query: 'tomatoes' })).results[0]?.path).toBe('memory/projects/garden.md');
    await first.dispose();
  });

  it('reports progress with files and chunks done/total', async () => {
    const fx = memoryFixture(notes);
    const idx = fx.open();
    const seen: SyncProgress[] = [];
    await idx.sync({ onProgress: (p) => seen.push(p) });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ phase: 'done', filesDone: 4, filesTotal: 4, chunksDone: 4, chunksTotal: 4 });
    await idx.dispose();
  });

  it('indexes transcripts only when the sessions source is on, with JSONL line numbers and secrets redacted', async () => {
    const session = [
      JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: '2024-05-02T09:00:00Z', cwd: '/' }),
      JSON.stringify({ type: 'message', id: '00000001', parentId: null, timestamp: '2024-05-02T09:00:01Z', message: { role: 'user', content: 'The staging password=Sup3rS3cretValue and the kayak trip is in June', timestamp: 1 } }),
      JSON.stringify({ type: 'message', id: '00000002', parentId: '00000001', timestamp: '2024-05-02T09:00:02Z', message: { role: 'assistant', content: [{ type: 'text', text: 'Noted the kayak trip.' }] } }),
    ].join('\n');
    const files = { ...notes, 'agents/main/sessions/abc.jsonl': session };
    const off = memoryFixture(files);
    const idxOff = off.open();
    await idxOff.sync();
    expect((await idxOff.search({ query: 'kayak trip' })).results).toEqual([]);
    await idxOff.dispose();

    const on = memoryFixture(files, settingsWith((s) => (s.sources = ['memory', 'sessions'])));
    const idx = on.open();
    await idx.sync();
    const res = await idx.search({ query: 'kayak trip' });
    expect(res.results[0]).toMatchObject({ path: 'sessions/abc.jsonl', source: 'sessions', startLine: 2, endLine: 3, citation: 'sessions/abc.jsonl#L2-L3' });
    expect(res.results[0]?.snippet).toContain('User: The staging password=[REDACTED]');
    expect((await idx.search({ query: 'Sup3rS3cretValue' })).results).toEqual([]);
    expect((await idx.search({ query: 'kayak', source: 'memory' })).results).toEqual([]);
    await idx.dispose();
  });
});
