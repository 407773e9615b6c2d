/**
 * How long `compact.plan`, `tokens.exact` and `compact.run` hold the engine thread on a big
 * session (the 10,000-entry, ~100 MB one of testkit/big-inputs.ts): the longest
 * event-loop block (perf_hooks.monitorEventLoopDelay, 1 ms resolution) while the call runs
 * on a fresh engine (nothing cached), its wall time, and whether an `app.status` asked right
 * after it was answered first. No model: the run writes the deterministic extract.
 *
 *   node --import tsx bench/compact-big.ts [entries=10000] [runs=3]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createEngine } from '../electron/engine/engine';
import { createDirectClient } from '../electron/engine/rpc/direct';
import { writeBigSession } from '../testkit/big-inputs';

const entries = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 3);

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-compact-big-'));
const big = writeBigSession(stateDir, entries, 120_000);
const pristine = `${big.file}.pristine`;
fs.copyFileSync(big.file, pristine);

type Channel = 'compact.plan' | 'tokens.exact' | 'compact.run';

/** One call on a fresh engine: the longest block, the wall time, and who answered first. */
async function measure(channel: Channel): Promise<{ maxMs: number; wallMs: number; statusFirst: boolean }> {
  if (channel === 'compact.run') {
    fs.copyFileSync(pristine, big.file);
    for (const f of fs.readdirSync(path.dirname(big.file))) if (f.includes('.checkpoint.')) fs.rmSync(path.join(path.dirname(big.file), f));
  }
  const engine = createEngine({ stateDir });
  const api = createDirectClient(engine);
  try {
    await api['app.status']({ checks: false }); // the engine's own start-up is not the call's
    const order: string[] = [];
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    // The histogram records a block when its timer next fires: let it fire before reading.
    // The first interval is not recorded (Node's histogram starts at the first tick): start
    // the call after a few ticks.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
    await settle();
    const t0 = performance.now();
    const call = api[channel]({ sessionId: big.sessionId }).then(() => order.push(channel));
    const status = api['app.status']({ checks: false }).then(() => order.push('status'));
    await Promise.all([call, status]);
    const wallMs = performance.now() - t0;
    await settle();
    h.disable();
    return { maxMs: h.max / 1e6, wallMs, statusFirst: order[0] === 'status' };
  } finally {
    await engine.dispose();
  }
}

const fmt = (xs: number[]) => xs.map((x) => Math.round(x).toLocaleString('en-US')).join(' / ');
console.log(`session: ${entries.toLocaleString('en-US')} entries, ${(big.bytes / 1e6).toFixed(1)} MB; ${runs} runs each, fresh engine per run; load average ${os.loadavg()[0]?.toFixed(1)}\n`);
console.log('| channel | longest block ms (runs) | wall ms (runs) | app.status answered first |');
console.log('|---|---:|---:|---|');
for (const channel of ['compact.plan', 'tokens.exact', 'compact.run'] as const) {
  const rs = [];
  for (let i = 0; i < runs; i++) rs.push(await measure(channel));
  console.log(`| ${channel} | ${fmt(rs.map((r) => r.maxMs))} | ${fmt(rs.map((r) => r.wallMs))} | ${rs.map((r) => (r.statusFirst ? 'yes' : 'no')).join(' / ')} |`);
}
fs.rmSync(stateDir, { recursive: true, force: true });
