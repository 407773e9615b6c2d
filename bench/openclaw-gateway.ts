/**
 * Cairn's plugin under a long-lived OpenClaw gateway (issue 38): the plugin under OpenClaw's
 * Node 24 (the install of scripts/fetch-test-openclaw.mjs) drives ONE real
 * `cairn openclaw-bridge` through N prompts and M corpus searches, a new memory note (and a
 * prompt asking for it) every 8th prompt; then the bridge is killed and the next prompt
 * restarts it; then four plugin processes on one state dir prompt at once.
 *
 *   node --import tsx bench/openclaw-gateway.ts [--prompts 2000] [--searches 500]
 *
 * Prints Markdown tables (latency, each process's RSS and open fds over the run), with the
 * load before and after: the machine may be shared. The budgets are the plugin's defaults
 * (300 ms a prompt, 2 s a start, 10 s a search), so a late answer shows as a miss.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { driveGateway, quantile } from '../tests/helpers/openclaw-gateway-drive';
import { hostileNote, ocDirIn, openClawNode, startPluginHost, type Usage } from '../tests/helpers/openclaw-plugin-host';

const CAIRN_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'cairn.mjs');

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const uptime = () => `${new Date().toISOString()} load average: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')} (${os.cpus().length} cores)`;
const mb = (u: Usage | null | undefined) => (u ? `${(u.rss / 2 ** 20).toFixed(1)} MB` : '–');
const ms = (xs: number[]) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)} / ${Math.max(...xs).toFixed(1)}`;

/** A fresh OpenClaw dir and Cairn data dir under the system's temp dir. */
function freshDirs(): { stateDir: string; dataDir: string; memoryDir: string } {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-gw-'));
  const dataDir = path.join(parent, 'data');
  fs.mkdirSync(dataDir);
  return { ...ocDirIn(parent, hostileNote()), dataDir };
}

async function main(): Promise<void> {
  const { node, skip } = openClawNode();
  if (!node) throw new Error(`OpenClaw's Node is not installed${skip}`);
  const prompts = flag('--prompts', 2000);
  const searches = flag('--searches', 500);
  console.log(`before: ${uptime()}\n`);
  const { stateDir, dataDir, memoryDir } = freshDirs();
  const host = startPluginHost(node, { stateDir, dataDir, node: process.execPath, bin: CAIRN_BIN });
  // The first prompt starts Cairn (and may miss its budget); a few calls warm it before the samples.
  await driveGateway(host, { prompts: 20, searches: 5, noteEvery: 1000, sampleEvery: 1000, memoryDir });
  const started = performance.now();
  const run = await driveGateway(host, { prompts, searches, noteEvery: 8, sampleEvery: Math.max(1, Math.round((prompts + searches) / 5)), memoryDir });
  const wall = performance.now() - started;
  console.log(`| ${prompts} prompts + ${searches} searches, one bridge | p50 / p95 / max ms |\n|---|---|`);
  console.log(`| prompt (recall, 300 ms budget) | ${ms(run.promptMs)} |`);
  console.log(`| corpus search (10 s budget) | ${ms(run.searchMs)} |`);
  console.log(`| wrong or missing answers | ${run.wrong.length} of ${prompts + searches} |`);
  console.log(`| wall time | ${(wall / 1000).toFixed(1)} s |\n`);
  console.log('| after call | client RSS | client fds | bridge RSS | bridge fds | bridge pid |\n|---|---|---|---|---|---|');
  for (const s of run.samples) console.log(`| ${s.at} | ${mb(s.client)} | ${s.client?.fds ?? '–'} | ${mb(s.bridge)} | ${s.bridge?.fds ?? '–'} | ${s.bridgePid ?? '–'} |`);
  if (run.wrong.length) console.log(`\nfirst misses: ${run.wrong.slice(0, 5).join('; ')}`);

  await host.call('kill');
  await host.call('forgetStart');
  const restart = await host.call<{ context: string | null; ms: number }>('prompt', { message: 'What is the Lisbon trip codeword?', sessionId: 'after-kill' });
  const next = await host.call<{ context: string | null; ms: number }>('prompt', { message: 'What is the Lisbon trip codeword?', sessionId: 'after-kill' });
  await host.close();
  console.log(`\n| after the bridge was killed | ms | recall |\n|---|---|---|`);
  console.log(`| first prompt (restarts it: 2 s start-up + 300 ms) | ${restart.ms.toFixed(0)} | ${restart.context?.includes('saffron-kite') ? 'yes' : 'no'} |`);
  console.log(`| second prompt | ${next.ms.toFixed(0)} | ${next.context?.includes('saffron-kite') ? 'yes' : 'no'} |`);

  const four = freshDirs();
  const hosts = Array.from({ length: 4 }, () => startPluginHost(node, { stateDir: four.stateDir, dataDir: four.dataDir, node: process.execPath, bin: CAIRN_BIN, startupBudgetMs: 60_000 }));
  const rounds: { ms: number; ok: boolean }[][] = [];
  for (let r = 0; r < 5; r++) {
    rounds.push(
      await Promise.all(
        hosts.map(async (h, i) => {
          const a = await h.call<{ context: string | null; ms: number }>('prompt', { message: 'What is the Lisbon trip codeword?', sessionId: `p${i}-r${r}` });
          return { ms: a.ms, ok: a.context?.includes('saffron-kite') === true };
        }),
      ),
    );
  }
  await Promise.all(hosts.map((h) => h.close()));
  console.log(`\n| four processes, one state dir, at once | ms per process | recall |\n|---|---|---|`);
  rounds.forEach((r, i) => console.log(`| round ${i + 1}${i === 0 ? ' (each starts its bridge; 60 s start-up budget)' : ''} | ${r.map((x) => x.ms.toFixed(0)).join(' / ')} | ${r.filter((x) => x.ok).length} of 4 |`));
  console.log(`\nafter: ${uptime()}`);
}

await main();
