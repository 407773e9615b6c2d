/**
 * The memory index's dirty check (MemoryIndex.isDirty: list the sources, lstat each file,
 * compare with the files table) — what every `cairn search` without a running watcher pays
 * before searching. Since issue 11 it is asynchronous only: this measures its wall time and
 * the longest stretch the event loop was held while it ran (the Electron main thread, in the
 * app). Run: `node --import tsx bench/index-dirty.ts` (prints a Markdown table).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultConfig } from '../electron/engine/config/schema';
import { MemoryIndex } from '../electron/engine/index/memory-index';
import { median } from './lib/stats';

const ROUNDS = 15;

async function measure(files: number): Promise<string> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-dirty-'));
  const ws = path.join(root, 'workspace');
  for (let i = 0; i < files; i++) {
    const dir = path.join(ws, 'memory', `d${i % 30}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `n${i}.md`), `# note ${i}\nsome text ${i}\n`);
  }
  const settings = defaultConfig().memory.search;
  const idx = MemoryIndex.open({
    agentId: 'main',
    indexFile: path.join(root, 'index.sqlite'),
    roots: { workspace: ws, sessionsDir: '', extraPaths: [], sources: ['memory'] },
    settings,
    embedder: null,
  });
  try {
    await idx.sync();
    const walls: number[] = [];
    const gaps: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      let longest = 0;
      let last = performance.now();
      const probe = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 0);
      const t = performance.now();
      if (await idx.isDirty()) throw new Error('a freshly synced index reads as dirty');
      walls.push(performance.now() - t);
      clearInterval(probe);
      gaps.push(longest);
    }
    return `| ${files} | ${median(walls).toFixed(1)} ms | ${median(gaps).toFixed(1)} ms | ${Math.max(...gaps).toFixed(1)} ms |`;
  } finally {
    await idx.dispose();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

console.log('| files | isDirty wall (median) | longest event-loop gap (median) | longest gap (max) |');
console.log('|---|---|---|---|');
for (const n of [900, 10_000]) console.log(await measure(n));
