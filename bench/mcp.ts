/**
 * `cairn mcp` start-up as a client sees it: spawn the real executable (the CLI bundle when
 * fresh), `initialize`, the first `memory_search`, the first `memory_get`; and the native
 * module check every `cairn` start runs (bin/native-check.mjs), in-process.
 *
 *   node --import tsx bench/mcp.ts [runs]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { quantile as percentile } from './lib/stats';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 5);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-mcp-'));
fs.mkdirSync(path.join(dir, 'workspace', 'memory'), { recursive: true });
fs.writeFileSync(path.join(dir, 'cairn.json'), JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'none' } } } }));
for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(dir, 'workspace', 'memory', `2026-01-${String(i % 28 + 1).padStart(2, '0')}-${i}.md`), `# Note ${i}\n\nSaw bird ${i} near the ridge; kestrel ${i % 7}.\n`);

const t: Record<'initialize' | 'search' | 'get', number[]> = { initialize: [], search: [], get: [] };
for (let i = 0; i < runs; i++) {
  const client = new Client({ name: 'bench', version: '0' });
  const t0 = performance.now();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(root, 'bin/cairn.mjs'), 'mcp', '--state-dir', dir] }));
  const t1 = performance.now();
  const res = (await client.callTool({ name: 'memory_search', arguments: { query: 'kestrel 3' } })) as { content: { text: string }[] };
  const t2 = performance.now();
  await client.callTool({ name: 'memory_get', arguments: { path: res.content[0]?.text.split(' ')[0] ?? 'MEMORY.md' } });
  const t3 = performance.now();
  t.initialize.push(t1 - t0);
  t.search.push(t2 - t1);
  t.get.push(t3 - t2);
  await client.close();
}
const { nativeModuleProblem } = (await import(path.join(root, 'bin/native-check.mjs'))) as { nativeModuleProblem(r: string): string | undefined };
const check: number[] = [];
for (let i = 0; i < 50; i++) {
  const a = performance.now();
  nativeModuleProblem(root);
  check.push(performance.now() - a);
}
fs.rmSync(dir, { recursive: true, force: true });
const row = (name: string, xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `| ${name} | ${s.length} | ${percentile(s, 0.5).toFixed(2)} | ${percentile(s, 0.95).toFixed(2)} |`;
};
console.log(`| step (200 notes, provider none) | runs | p50 ms | p95 ms |\n|---|---|---|---|`);
console.log(row('spawn + initialize', t.initialize));
console.log(row('first memory_search of the process (run 1 also builds the index)', t.search));
console.log(row('memory_get of its first citation', t.get));
console.log(row('native module check, warm (recorded ABI, in-process)', check));
