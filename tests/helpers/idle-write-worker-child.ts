/**
 * A process that syncs a memory index with its writes made by the index's write worker
 * (writeWorker 'on') and then has nothing left to do, the worker idle and the index not
 * disposed: it must end on its own (tests/unit/index-write-worker-exit.test.ts). Prints
 * what the sync did. Usage: node --import tsx idle-write-worker-child.ts <dir>
 */
import fs from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { defaultConfig } from '../../electron/engine/config/schema';
import { MemoryIndex } from '../../electron/engine/index/memory-index';

const dir = process.argv[2]!;
const workspace = path.join(dir, 'workspace');
fs.mkdirSync(path.join(workspace, 'memory'), { recursive: true });
fs.writeFileSync(path.join(workspace, 'MEMORY.md'), '# Preferences\n\nPrefers dark mode.\n');
const settings = defaultConfig().memory.search;
settings.sources = ['memory'];
const idx = MemoryIndex.open({
  agentId: 'main',
  indexFile: path.join(dir, 'index.sqlite'),
  roots: { workspace, sessionsDir: path.join(dir, 'sessions'), extraPaths: [], sources: ['memory'] },
  settings,
  embedder: null,
  warn: () => undefined,
  writeWorker: 'on',
});
const first = await idx.sync();
fs.writeFileSync(path.join(workspace, 'memory', '2024-05-01.md'), '# 2024-05-01\n\nKayak trip on the lake.\n');
const second = await idx.sync();
process.stdout.write(`${JSON.stringify({ isMainThread, full: [first.full, second.full], chunks: second.chunks, resources: process.getActiveResourcesInfo() })}\n`);
