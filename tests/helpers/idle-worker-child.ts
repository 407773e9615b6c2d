/**
 * A process that syncs a memory index with its writes made by the index's write worker
 * (writeWorker 'on'), and with `knn` also answers a query on a KNN worker, then has nothing
 * left to do — the workers idle, the index not disposed: it must end on its own
 * (tests/unit/index-write-worker-exit.test.ts). Prints what it did and what still holds its
 * event loop. Usage: node --import tsx idle-worker-child.ts <dir> [knn]
 */
import fs from 'node:fs';
import path from 'node:path';
import { defaultConfig } from '../../electron/engine/config/schema';
import { MemoryIndex } from '../../electron/engine/index/memory-index';
import { startKnnWorker } from '../../electron/engine/search/knn-worker';
import { FakeEmbedder } from '../../testkit/fake-embedder';

const dir = process.argv[2]!;
const knn = process.argv[3] === 'knn';
const workspace = path.join(dir, 'workspace');
const indexFile = path.join(dir, 'index.sqlite');
fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
fs.writeFileSync(path.join(workspace, 'MEMORY.md'), '# Preferences\n\nPrefers dark mode.\n');
const settings = defaultConfig().memory.search;
settings.sources = ['memory'];
const embedder = new FakeEmbedder();
const idx = MemoryIndex.open({
  agentId: 'main',
  indexFile,
  roots: { workspace, sessionsDir: path.join(dir, 'sessions'), extraPaths: [], sources: ['memory'] },
  settings,
  embedder,
  warn: () => undefined,
  writeWorker: 'on',
});
const first = await idx.sync();
fs.writeFileSync(path.join(workspace, 'memory', '2024-05-01.md'), '# 2024-05-01\n\nKayak trip on the lake.\n');
const second = await idx.sync();
let hits: number | undefined;
if (knn) {
  const worker = await startKnnWorker(indexFile);
  const [vec] = await embedder.embed(['kayak trip'], { kind: 'query' });
  hits = (await worker.query(vec!, 2, { sources: ['memory'] })).length;
}
process.stdout.write(`${JSON.stringify({ full: [first.full, second.full], chunks: second.chunks, hits, resources: process.getActiveResourcesInfo() })}\n`);
