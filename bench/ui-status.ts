/**
 * Status page checks (issue 14 item 13): how long until the first doctor check is shown vs.
 * until all are, now that `doctor.run` streams `doctor.check` per finished check. Runs the
 * real engine on a temp state dir in a fresh process per run (node-llama-cpp's load is cached
 * per process, so a page's first visit is the cold row).
 *   node --import tsx bench/ui-status.ts [runs=3]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(import.meta.url);

async function child(): Promise<void> {
  const { createEngine } = await import('../electron/engine/engine');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-status-'));
  fs.mkdirSync(path.join(dir, 'cairn'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'cairn/state.json'), '{}');
  const engine = createEngine({ stateDir: dir });
  const row = async () => {
    const t0 = performance.now();
    const arrivals: { id: string; ms: number }[] = [];
    const off = engine.events.on('doctor.check', (p) => arrivals.push({ id: p.check.id, ms: performance.now() - t0 }));
    const res = await engine.dispatcher.dispatch('doctor.run', {}, 'bench');
    off();
    if (!res.ok) throw new Error(res.error.message);
    return { first: arrivals[0]!, allButLast: arrivals.at(-2)?.ms ?? 0, all: performance.now() - t0, n: arrivals.length, slowest: arrivals.at(-1)!.id };
  };
  const cold = await row();
  const warm = await row();
  process.stdout.write(`${JSON.stringify({ cold, warm })}\n`);
  await engine.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
}

if (process.argv[2] === '--child') await child();
else {
  const runs = Number(process.argv[2] ?? 3);
  console.log('| run | visit | checks | first check shown (ms) | all but the last shown (ms) | all checks (ms) | last to finish |');
  console.log('|---|---|---|---|---|---|---|');
  for (let i = 1; i <= runs; i++) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', here, '--child'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    const { cold, warm } = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Record<'cold' | 'warm', { first: { id: string; ms: number }; allButLast: number; all: number; n: number; slowest: string }>;
    for (const [name, x] of [['first', cold], ['again', warm]] as const) {
      console.log(`| ${i} | ${name} | ${x.n} | ${x.first.ms.toFixed(0)} (${x.first.id}) | ${x.allButLast.toFixed(0)} | ${x.all.toFixed(0)} | ${x.slowest} |`);
    }
  }
}
