/**
 * The engine's thread while another process holds a file lock (util/file-lock.ts): how long
 * `app.status` takes while `chat.newSession` waits for sessions.json's lock held by a real
 * second process, and how long taking over the lock of a killed holder takes (it used to
 * wait out the 10 s stale time, with the thread blocked).
 *
 *   node --import tsx bench/file-lock.ts [calls=200]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { createEngine } from '../electron/engine/engine';
import { createDirectClient } from '../electron/engine/rpc/direct';
import { withFileLock } from '../electron/engine/util/file-lock';
import { quantile as percentile } from './lib/stats';

const calls = Number(process.argv[2] ?? 200);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-lock-'));
process.env.CAIRN_DATA_DIR ??= path.join(dir, 'data');
const holderScript = path.join(dir, 'holder.mts');
const lockModule = pathToFileURL(path.resolve('electron/engine/util/file-lock.ts')).href;
fs.writeFileSync(
  holderScript,
  `import { withFileLock } from ${JSON.stringify(lockModule)};
await withFileLock(process.argv[2], async () => { process.stdout.write('held\\n'); await new Promise((r) => process.stdin.on('end', r).resume()); });`,
);

/** A second process holding the lock of `file`, once it holds it. */
async function holder(file: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', holderScript, file], { stdio: ['pipe', 'pipe', 'inherit'] });
  await readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
  return child;
}

const rows: string[][] = [];
const engine = createEngine({ stateDir: path.join(dir, 'state'), deps: { createEmbedder: async () => null, createLlm: () => undefined, env: {} } });
const api = createDirectClient(engine);
try {
  const index = engine.ctx.paths().sessionsIndex;
  fs.mkdirSync(path.dirname(index), { recursive: true });
  // 1. Other calls while a locked call waits.
  const child = await holder(index);
  let waiting = true;
  const created = api['chat.newSession']({}).finally(() => (waiting = false));
  const took: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await api['app.status']({ checks: false });
    took.push(performance.now() - t0);
  }
  const stillWaiting = waiting;
  child.stdin.end();
  await created;
  took.sort((a, b) => a - b);
  rows.push([`app.status ({checks:false}) × ${calls} while chat.newSession waits for a lock held by another process`, `p50 ${percentile(took, 0.5).toFixed(2)} ms, p99 ${percentile(took, 0.99).toFixed(2)} ms, max ${took.at(-1)?.toFixed(2)} ms (lock still held throughout: ${stillWaiting})`]);

  // 2. Taking over a killed holder's lock.
  const file = path.join(dir, 'other.json');
  const doomed = await holder(file);
  await new Promise((resolve) => {
    doomed.once('exit', resolve);
    doomed.kill('SIGKILL');
  });
  const t0 = performance.now();
  await withFileLock(file, () => undefined);
  rows.push(['taking the lock a SIGKILLed holder left behind', `${(performance.now() - t0).toFixed(1)} ms (was 10 s: the stale time)`]);
} finally {
  await engine.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
}
console.log('| what | measured |\n| --- | --- |');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
