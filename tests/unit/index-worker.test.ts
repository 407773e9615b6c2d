/**
 * Indexing with the static embedder in a worker thread (embed/embed-worker.ts,
 * index/embed-jobs.ts): same vectors as in-process, same index content, cancellation, and
 * the bulk (one-transaction) rebuild keeping the old index on failure.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createPotionEmbedder, shippedPotionModel, type PotionEmbedder } from '../../electron/engine/embed/potion';
import { allowWorker, startEmbedWorker, workerSpecOf } from '../../electron/engine/embed/embed-worker';
import { defaultLoadVec, openDatabase } from '../../electron/engine/index/db';
import { MemoryIndex } from '../../electron/engine/index/memory-index';
import { rebuildIndex } from '../../electron/engine/index/reindex';
import { createBaseSchema, createVectorTable, SCHEMA_VERSION, type IndexIdentity } from '../../electron/engine/index/schema';
import { createStore } from '../../electron/engine/index/store';
import { listSourceFiles } from '../../electron/engine/index/sources';
import { syncFiles, type SyncProgress } from '../../electron/engine/index/sync';
import { searchIndex } from '../../electron/engine/search/index-search';
import { settingsWith } from '../helpers/memory-fixture';
import { tmpDir, writeTree } from '../helpers/tmp';

const TEXTS = [
  'Deployed commit a1b2c3d to production after the retry logic review.',
  '',
  'the and of', // stop words only
  'State-of-the-art e-mail triage; naïve café notes',
  '发布计划 東京の会議',
  'Kenji packaging '.repeat(200),
];

const file = shippedPotionModel();

/** The shipped static embedder, in-process. */
const staticEmbedder = async (): Promise<{ emb: PotionEmbedder }> => ({ emb: await createPotionEmbedder() });

/** Another one over the same model, marked offloadable as the embedder factory marks it. */
const offloadable = async (): Promise<PotionEmbedder> => allowWorker(await createPotionEmbedder(), { kind: 'potion', file });

const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');

/** A workspace with enough daily notes for several batches (about 60 chunks). */
function workspace(): { root: string; ws: string } {
  const root = tmpDir('cairn-worker-');
  const files: Record<string, string> = { 'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim keybindings.\n' };
  for (let d = 1; d <= 20; d++) {
    const day = `2024-05-${String(d).padStart(2, '0')}`;
    const lines = [`# ${day}`];
    for (let i = 0; i < 60; i++) lines.push(`- note ${i} on ${day}: deploy staging, budget review, kayak trip, retry logic ${d * 100 + i}`);
    files[`workspace/memory/${day}.md`] = `${lines.join('\n')}\n`;
  }
  writeTree(root, files);
  return { root, ws: path.join(root, 'workspace') };
}

function identity(emb: PotionEmbedder): IndexIdentity {
  return {
    schema: SCHEMA_VERSION,
    provider: emb.provider,
    model: emb.model,
    dims: emb.dims,
    chunking: { tokens: 400, overlap: 80, version: 2 },
    sources: ['memory'],
    extraPaths: [],
    vector: 'vec0',
  };
}

function dump(file: string): { chunks: unknown[]; vectors: string[]; cache: string[]; indexed: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    defaultLoadVec(db);
    const hex = (rows: unknown[]) => (rows as Buffer[]).map((b) => b.toString('hex'));
    const chunks = db.prepare('SELECT id, path, start_line, end_line, text, heading, day FROM chunks ORDER BY id').all();
    const vectors = hex(db.prepare('SELECT embedding FROM embedding_cache ORDER BY hash').pluck().all());
    const cache = hex(db.prepare('SELECT hash FROM embedding_cache ORDER BY hash').pluck().all());
    // What KNN search reads: the vec0 table, by chunk id.
    const indexed = hex(db.prepare('SELECT embedding FROM chunks_vec ORDER BY rowid').pluck().all());
    return { chunks, vectors, cache, indexed };
  } finally {
    db.close();
  }
}

describe('embedding in a worker thread', () => {
  it('gives byte-identical vectors to the in-process static embedder', async () => {
    const { emb } = await staticEmbedder();
    const worker = await startEmbedWorker({ kind: 'potion', file }, { id: emb.id, dims: emb.dims });
    try {
      const off = await worker.embed(TEXTS);
      const here = await emb.embed(TEXTS);
      expect(off).toHaveLength(TEXTS.length);
      expect(off.map(bytes)).toEqual(here.map(bytes));
      // Batches are answered in order, even when several are in flight.
      const [a, b] = await Promise.all([worker.embed(TEXTS.slice(0, 2)), worker.embed(TEXTS.slice(3))]);
      expect([...a, ...b].map(bytes)).toEqual([...here.slice(0, 2), ...here.slice(3)].map(bytes));
    } finally {
      await worker.close();
    }
  });

  it('refuses a worker that would embed with another model', async () => {
    await expect(startEmbedWorker({ kind: 'potion', file }, { id: 'static:glove-100d-int8-sif', dims: 100 })).rejects.toThrow(
      /loaded static:potion-base-8M-int8 \(256 dims\), expected static:glove-100d-int8-sif \(100 dims\)/,
    );
  });

  it('only embedders marked by their factory are offloadable', async () => {
    const { emb } = await staticEmbedder();
    expect(workerSpecOf(emb)).toBeUndefined();
    expect(workerSpecOf(await offloadable())).toEqual({ kind: 'potion', file });
  });

  it('a full rebuild through the worker writes the same chunks, vectors and cache as in-process', async () => {
    const { emb } = await staticEmbedder();
    const { root, ws } = workspace();
    const files = await listSourceFiles({ workspace: ws, sessionsDir: '', extraPaths: [], sources: ['memory'] });
    const build = async (file: string, mode: 'wait' | 'off') => {
      const embedder = await offloadable();
      return rebuildIndex(
        {
          indexFile: file,
          identity: identity(emb),
          loadVec: undefined,
          embedder,
          files,
          chunking: { tokens: 400, overlap: 80 },
          cacheWrite: true,
          now: () => 0,
          embedWorker: mode,
        },
        () => {},
      );
    };
    const inWorker = await build(path.join(root, 'a.sqlite'), 'wait');
    const inProcess = await build(path.join(root, 'b.sqlite'), 'off');
    expect(inWorker.chunks).toBeGreaterThan(40);
    expect(inWorker.embeddedInWorker).toBe(inWorker.embedded);
    expect(inProcess.embeddedInWorker).toBe(0);
    expect({ ...inWorker, embeddedInWorker: 0 }).toEqual(inProcess);
    const a = dump(path.join(root, 'a.sqlite'));
    const b = dump(path.join(root, 'b.sqlite'));
    expect(a.chunks).toEqual(b.chunks);
    expect(a.cache).toEqual(b.cache);
    expect(a.vectors).toEqual(b.vectors);
    expect(a.indexed).toEqual(b.indexed);
    expect(a.indexed).toHaveLength(inWorker.chunks);
    expect(a.cache.length).toBeGreaterThan(40);
  });

  it('MemoryIndex: a full sync with an offloadable embedder answers searches exactly like an in-process one', async () => {
    const { emb } = await staticEmbedder();
    const { root } = workspace();
    const open = (file: string, embedder: PotionEmbedder) =>
      MemoryIndex.open({
        agentId: 'main',
        indexFile: path.join(root, file),
        roots: { workspace: path.join(root, 'workspace'), sessionsDir: '', extraPaths: [], sources: ['memory'] },
        settings: settingsWith(),
        embedder,
        now: () => new Date('2024-06-01T12:00:00Z'),
      });
    const offloaded = open('w.sqlite', await offloadable());
    const local = open('p.sqlite', emb);
    try {
      const [a, b] = [await offloaded.sync(), await local.sync()];
      expect({ ...a, durationMs: 0 }).toEqual({ ...b, durationMs: 0 });
      for (const query of ['kayak trip', 'what did we decide about the retry logic', 'budget review 2024-05-03']) {
        const [x, y] = [await searchIndex(offloaded, { query, minScore: 0 }), await searchIndex(local, { query, minScore: 0 })];
        expect(x.results.length).toBeGreaterThan(0);
        expect(x.results).toEqual(y.results);
      }
    } finally {
      await offloaded.dispose();
      await local.dispose();
    }
  });

  it('an incremental sync with many misses moves to the worker part-way, with the same vectors', async () => {
    const { emb } = await staticEmbedder();
    const { root, ws } = workspace();
    const files = await listSourceFiles({ workspace: ws, sessionsDir: '', extraPaths: [], sources: ['memory'] });
    const build = async (file: string, embedder: PotionEmbedder) => {
      const { db } = openDatabase(path.join(root, file), {});
      createBaseSchema(db);
      createVectorTable(db, emb.dims, 'vec0');
      const store = createStore(db, { provider: emb.provider, model: emb.model, vectors: 'vec0' });
      // Small chunks: several hundred misses in one (non-bulk) sync.
      const out = await syncFiles({ db, store, embedder, files, chunking: { tokens: 40, overlap: 8 }, cacheWrite: true, now: () => 0 });
      db.close();
      return out;
    };
    const offloaded = await build('w.sqlite', await offloadable());
    const local = await build('p.sqlite', emb);
    expect(offloaded.embedded).toBeGreaterThan(400);
    expect(offloaded.embeddedInWorker).toBeGreaterThan(0);
    expect(offloaded.embeddedInWorker).toBeLessThan(offloaded.embedded);
    expect({ ...offloaded, embeddedInWorker: 0 }).toEqual(local);
    const [a, b] = [dump(path.join(root, 'w.sqlite')), dump(path.join(root, 'p.sqlite'))];
    expect(a).toEqual(b);
  });

  it('a rebuild cancelled while the worker embeds keeps the old index and leaves no temp file', async () => {
    const { emb } = await staticEmbedder();
    const { root, ws } = workspace();
    const files = await listSourceFiles({ workspace: ws, sessionsDir: '', extraPaths: [], sources: ['memory'] });
    const indexFile = path.join(root, 'index', 'main.sqlite');
    const base = {
      indexFile,
      identity: identity(emb),
      loadVec: undefined,
      embedder: await offloadable(),
      chunking: { tokens: 400, overlap: 80 },
      cacheWrite: true,
      now: () => 0,
      embedWorker: 'wait' as const,
    };
    const first = await rebuildIndex({ ...base, files: files.slice(0, 3) }, () => {});
    const before = dump(indexFile);
    const ac = new AbortController();
    const phases: SyncProgress['phase'][] = [];
    const run = rebuildIndex(
      {
        ...base,
        files,
        signal: ac.signal,
        onProgress: (p) => {
          phases.push(p.phase);
          if (p.phase === 'write') ac.abort();
        },
      },
      () => {},
    );
    await expect(run).rejects.toThrow(/cancelled/);
    expect(phases).toContain('write');
    expect(dump(indexFile)).toEqual(before);
    expect(first.files).toBe(3);
    expect(fs.readdirSync(path.dirname(indexFile)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
