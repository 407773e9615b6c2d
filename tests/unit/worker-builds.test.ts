/**
 * The worker modules built as files of their own (scripts/build-workers.mjs), as the
 * Electron main process starts them — its CommonJS bundle gives modules no URL, so it
 * registers these builds (`registerWorkerModule`). Built into a temp dir under the repo
 * (so packages resolve), started with no module URL, they must answer exactly as the
 * in-process code does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBED_WORKER_MARK } from '../../electron/engine/embed/embed-worker';
import { createPotionEmbedder, shippedPotionModel } from '../../electron/engine/embed/potion';
import { openDatabase } from '../../electron/engine/index/db';
import { vec0Candidates, type Candidate } from '../../electron/engine/search/candidates';
import { KNN_WORKER_MARK } from '../../electron/engine/search/knn-worker';
import { WRITE_WORKER_MARK, type WriteRequest } from '../../electron/engine/index/write-worker';
import { connectWorker, registerWorkerModule, startModuleWorker } from '../../electron/engine/util/module-worker';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { memoryFixture } from '../helpers/memory-fixture';
import { TEST_CACHE_DIR } from '../../testkit/test-cache';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let outdir = '';

beforeAll(async () => {
  fs.mkdirSync(TEST_CACHE_DIR, { recursive: true });
  outdir = fs.mkdtempSync(path.join(TEST_CACHE_DIR, 'workers-'));
  const { buildWorkers } = (await import(pathToFileURL(path.join(root, 'scripts/build-workers.mjs')).href)) as {
    buildWorkers: (root: string, outdir: string) => Promise<void>;
  };
  await buildWorkers(root, outdir);
  registerWorkerModule(KNN_WORKER_MARK, pathToFileURL(path.join(outdir, 'knn-worker.mjs')).href);
  registerWorkerModule(EMBED_WORKER_MARK, pathToFileURL(path.join(outdir, 'embed-worker.mjs')).href);
  registerWorkerModule(WRITE_WORKER_MARK, pathToFileURL(path.join(outdir, 'write-worker.mjs')).href);
}, 60_000);

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

describe('worker modules built for the Electron main process', () => {
  it('with no module URL, the registered KNN worker build answers as vec0 in-process', async () => {
    const fx = memoryFixture({
      'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\n',
      'workspace/memory/2024-01-10.md': '# Deploy\n\nDeployed commit a1b2c3d to production.\n',
      'workspace/memory/2024-05-28.md': '# Database\n\nDecision: migrate the database to Postgres in June.\n',
    });
    const emb = new FakeEmbedder();
    const idx = fx.open({ embedder: emb });
    await idx.sync();
    const worker = await startModuleWorker(undefined, KNN_WORKER_MARK, { indexFile: fx.indexFile });
    expect(worker).not.toBeNull();
    const client = await connectWorker<{ vec: Float32Array; limit: number; filter: { sources: string[] } }, Candidate[]>(worker!, 'KNN worker');
    const { db } = openDatabase(fx.indexFile, { readonly: true });
    try {
      for (const q of ['deploy production', 'database Postgres', 'dark mode']) {
        const [v] = await emb.embed([q]);
        const filter = { sources: ['memory'] as const };
        const got = await client.call({ vec: v!, limit: 3, filter: { sources: ['memory'] } });
        // vec0's answer up to the worker's in-memory copy rounding cosines below 1e-5: the
        // same cosines rank by rank, each chunk's own (equal ones may swap).
        const want = vec0Candidates(db, v!, 3, filter);
        const exact = new Map(vec0Candidates(db, v!, 100, filter).map((c) => [c.id, c.raw]));
        got.forEach((c, i) => expect(c.raw).toBeCloseTo(want[i]!.raw, 5));
        got.forEach((c) => expect(c.raw).toBeCloseTo(exact.get(c.id)!, 5));
      }
    } finally {
      db.close();
      await client.close();
      await idx.dispose();
    }
  });

  it('with no module URL, the registered embed worker build gives the in-process vectors', async () => {
    const local = await createPotionEmbedder();
    const worker = await startModuleWorker(undefined, EMBED_WORKER_MARK, { spec: { kind: 'potion', file: shippedPotionModel() } });
    expect(worker).not.toBeNull();
    const client = await connectWorker<{ texts: string[] }, Float32Array, { id: string; dims: number }>(worker!, 'embed worker');
    try {
      const texts = ['Deployed the gateway to staging after the outage.', '我们讨论了明年的预算。', 'grocery list: eggs, milk'];
      const flat = await client.call({ texts });
      const mine = await local.embed(texts);
      texts.forEach((_, i) => expect(Array.from(flat.subarray(i * local.dims, (i + 1) * local.dims))).toEqual(Array.from(mine[i]!)));
    } finally {
      await client.close();
      await local.dispose();
    }
  });

  it('with no module URL, the registered write worker build opens the index with sqlite-vec and writes to it', async () => {
    const fx = memoryFixture({
      'workspace/MEMORY.md': '# Preferences\n\nThe user prefers dark mode and vim keybindings.\n',
      'workspace/memory/2024-01-10.md': '# Deploy\n\nDeployed commit a1b2c3d to production.\n',
    });
    const emb = new FakeEmbedder();
    const idx = fx.open({ embedder: emb, writeWorker: 'off' });
    await idx.sync();
    const worker = await startModuleWorker(undefined, WRITE_WORKER_MARK, {});
    expect(worker).not.toBeNull();
    const client = await connectWorker<WriteRequest, unknown>(worker!, 'write worker');
    try {
      expect(await client.call({ op: 'openIndex', indexFile: fx.indexFile, provider: emb.provider, model: emb.model, vector: 'vec0', vectors: true })).toEqual({ lineVectors: false });
      const files = (await client.call({ op: 'existing' })) as { path: string }[];
      expect(files.map((f) => f.path).sort()).toEqual(['MEMORY.md', 'memory/2024-01-10.md']);
      await client.call({ op: 'removeFiles', paths: ['MEMORY.md'] });
      await client.call({ op: 'close' });
      expect((await idx.search({ query: 'dark mode vim', minScore: 0 })).results.map((r) => r.path)).not.toContain('MEMORY.md');
    } finally {
      await client.close();
      await idx.dispose();
    }
  });
});
