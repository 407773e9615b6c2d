/**
 * Issue 30's measurements of Cairn inside OpenClaw, through the real OpenClaw 2026.9.6 (the
 * install of scripts/fetch-test-openclaw.mjs) with a scripted model:
 *
 *   node --import tsx bench/openclaw-recall.ts latency [--warm N] [--cold N]
 *     added wall time per turn with Cairn's plugin, warm (a Gateway) and cold (`agent
 *     --local`), against the same turns without it, interleaved (bench/lib/openclaw-latency.ts)
 *   node --import tsx bench/openclaw-recall.ts hits [--per-conversation N] [--conversations N] [--data DIR]
 *     auto-recall hit rate on LoCoMo questions (default ../shared/eval/locomo-dev, 7 per
 *     conversation = 35), next to OpenClaw's memory_search (bench/lib/openclaw-hits.ts)
 *   CAIRN_BENCH_DUMP=FILE … hits   also writes each question's section and tool answer (JSON lines);
 *   node --import tsx bench/openclaw-recall.ts rescore --dump FILE   scores such a file again
 *
 * Prints Markdown tables, with the load (`uptime`) before and after: the machine may be shared.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hitsTable, rescoreDump, runHits } from './lib/openclaw-hits';
import { runLatency } from './lib/openclaw-latency';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}

/** What `uptime` prints: the time and the 1, 5 and 15-minute load averages. */
const uptime = () => `${new Date().toISOString()} load average: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} (${os.cpus().length} cores)`;
const log = (l: string) => process.stderr.write(`${l}\n`);

async function main(): Promise<void> {
  const what = process.argv[2];
  console.log(`load before: ${uptime()}\n`);
  if (what === 'latency') {
    const table = await runLatency({
      workspace: path.join(repoRoot, 'tests', 'fixtures', 'openclaw-2026.9.6', 'state', 'workspace'),
      warmTurns: Number(flag('--warm', '20')),
      coldTurns: Number(flag('--cold', '6')),
      log,
    });
    console.log(table);
  } else if (what === 'hits') {
    const rows = await runHits(path.resolve(flag('--data', path.join(repoRoot, '..', 'shared', 'eval', 'locomo-dev'))), Number(flag('--per-conversation', '7')), log, Number(flag('--conversations', 'Infinity')));
    console.log(hitsTable(rows));
  } else if (what === 'rescore') {
    console.log(hitsTable(rescoreDump(flag('--dump', ''))));
  } else {
    throw new Error('usage: bench/openclaw-recall.ts latency [--warm N] [--cold N] | hits [--per-conversation N] [--data DIR]');
  }
  console.log(`\nload after: ${uptime()}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
