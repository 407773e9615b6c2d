/** The real embedder a benchmark runs: the GGUF named by CAIRN_BENCH_GGUF, else the test suite's all-MiniLM-L6-v2. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The test suite's all-MiniLM-L6-v2 (scripts/fetch-test-models.mjs), or the GGUF named by CAIRN_BENCH_GGUF (e.g. a Q8_0 import). */
export function benchModelPath(): string {
  if (process.env.CAIRN_BENCH_GGUF) return process.env.CAIRN_BENCH_GGUF;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/fetch-test-models.mjs'), '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const p = (JSON.parse(r.stdout) as { embedder: string | null }).embedder;
  if (!p) throw new Error('no embedder: run node scripts/fetch-test-models.mjs');
  return p;
}
