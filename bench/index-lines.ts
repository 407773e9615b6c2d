/**
 * What line vectors (index/line-vectors.ts, issue 13) cost at indexing time: one fresh full
 * index of a memory folder with `lineVectors` off and then on, each from an empty index
 * file (no cache carried in), printing wall time, this process's CPU time, texts embedded,
 * chunks, line vectors and the index file size as a Markdown table.
 *
 *   node --import tsx bench/index-lines.ts <state-dir> [static|<model.gguf>]
 *
 * `<state-dir>` holds `workspace/` (e.g. one conversation of ../shared/eval/locomo-dev —
 * the data is read in place, never copied; the index goes to a temp dir that is removed).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../electron/engine/config/schema';
import { createGgufEmbedder } from '../electron/engine/embed/gguf';
import { createPotionEmbedder } from '../electron/engine/embed/potion';
import type { Embedder } from '../electron/engine/embed/types';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { openDatabase } from '../electron/engine/index/db';

async function main(): Promise<void> {
  const [stateDir, spec = 'static'] = process.argv.slice(2);
  if (!stateDir || !fs.existsSync(path.join(stateDir, 'workspace'))) {
    console.error('usage: node --import tsx bench/index-lines.ts <state-dir with workspace/> [static|<model.gguf>]');
    process.exit(2);
  }
  const embedder: Embedder = spec === 'static'
    ? await createPotionEmbedder()
    : await createGgufEmbedder({ modelPath: path.resolve(spec), threads: 1 });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-index-lines-'));
  console.log(`Index of ${path.resolve(stateDir)} with ${embedder.id}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')}.\n`);
  console.log('| lineVectors | wall | CPU | texts embedded | chunks | line vectors | index size |');
  console.log('|---|---|---|---|---|---|---|');
  try {
    for (const mode of ['off', 'on'] as const) {
      const settings = defaultConfig().memory.search;
      settings.query.hybrid.lineVectors = mode;
      const indexFile = path.join(tmp, `${mode}.sqlite`);
      const idx = MemoryIndex.open({
        agentId: 'main',
        indexFile,
        roots: { workspace: path.join(stateDir, 'workspace'), sessionsDir: path.join(stateDir, 'agents', 'main', 'sessions'), extraPaths: [], sources: settings.sources },
        settings,
        embedder,
      });
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await idx.sync();
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      await idx.dispose();
      const { db } = openDatabase(indexFile, { readonly: true });
      const lines = mode === 'on' ? (db.prepare('SELECT COUNT(*) FROM chunk_lines').pluck().get() as number) : 0;
      db.close();
      const mb = fs.statSync(indexFile).size / 1e6;
      console.log(`| ${mode} | ${(wall / 1000).toFixed(1)} s | ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s | ${r.embedded} | ${r.chunks} | ${lines} | ${mb.toFixed(1)} MB |`);
    }
  } finally {
    await embedder.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
