/**
 * `npm run bench`: runs every benchmark script in bench/ (each prints a Markdown table) one
 * after another in its own process, so one's memory does not skew another's peak RSS.
 * `npm run bench -- context` runs only the scripts whose name contains "context".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const filter = process.argv.slice(2);
const scripts = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'eval.ts'].includes(f) && !f.startsWith('_'))
  .filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)))
  .sort();

let failed = 0;
for (const f of scripts) {
  console.log(`\n## bench/${f}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', path.join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`bench/${f} exited with ${r.status ?? r.signal}`);
  }
}
if (scripts.length === 0) console.log('no benchmark scripts matched');
process.exit(failed ? 1 : 0);
