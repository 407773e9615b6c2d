/**
 * Cairn's plugin under a long-lived OpenClaw gateway (which keeps one process for days): the
 * plugin under OpenClaw's Node 24 drives ONE real `cairn openclaw-bridge` through hundreds of
 * prompts and corpus searches while memory notes change between them
 * (tests/helpers/openclaw-gateway-drive.ts; bench/openclaw-gateway.ts runs 2,000 + 500 and
 * reports the figures): every answer holds what it should, the bridge stays the same process,
 * and neither process's open file descriptors grow. Then the bridge is killed and the next
 * prompt restarts it and still gets recall; then four OpenClaw processes on one state dir at
 * once all get recall. No time is asserted (budgets are generous; the benchmark times).
 */
import { describe, expect, it } from 'vitest';
import { CAIRN_BIN } from '../helpers/cli';
import { driveGateway } from '../helpers/openclaw-gateway-drive';
import { pluginOcDir } from '../helpers/openclaw-plugin-dir';
import { openClawNode, type PluginConfig, startPluginHost } from '../helpers/openclaw-plugin-host';

const { node, skip } = openClawNode();
const PROMPTS = 240;
const SEARCHES = 60;

describe(`Cairn's plugin under a long-lived gateway, on OpenClaw's Node 24${skip}`, () => {
  it.skipIf(!node)(`${PROMPTS} prompts and ${SEARCHES} corpus searches on one bridge stay right and flat; a killed bridge comes back on the next prompt`, { timeout: 600_000 }, async () => {
    const { stateDir, dataDir, memoryDir } = pluginOcDir();
    const config: PluginConfig = { stateDir, dataDir, node: process.execPath, bin: CAIRN_BIN, recallBudgetMs: 600_000, startupBudgetMs: 600_000, minScore: 0 };
    const host = startPluginHost(node as string, config);
    try {
      // Warm first, so the samples compare a running bridge with itself.
      await driveGateway(host, { prompts: 20, searches: 5, noteEvery: 10, sampleEvery: 25, memoryDir });
      const run = await driveGateway(host, { prompts: PROMPTS, searches: SEARCHES, noteEvery: 8, sampleEvery: 50, memoryDir });
      expect(run.wrong).toEqual([]);
      expect(run.promptMs).toHaveLength(PROMPTS);
      expect(run.searchMs).toHaveLength(SEARCHES);
      const first = run.samples[0];
      const last = run.samples.at(-1);
      // One bridge all along, and no descriptor left open per call (a leak of one per prompt
      // would be hundreds); RSS only loosely (the garbage collector decides when it shrinks).
      expect(new Set(run.samples.map((s) => s.bridgePid)).size).toBe(1);
      for (const who of ['client', 'bridge'] as const) {
        expect(last?.[who]?.fds).toBeLessThanOrEqual((first?.[who]?.fds ?? 0) + 4);
        expect(last?.[who]?.rss).toBeLessThan((first?.[who]?.rss ?? 0) * 2 + 64 * 2 ** 20);
      }

      // Cairn's bridge dies (killed, an OOM): the next prompt starts it again and gets recall.
      const { killed } = await host.call<{ killed: number | null }>('kill');
      expect(killed).toBe(last?.bridgePid);
      // (As after minutes of a gateway's life: the plugin's pause between restarts has passed.)
      await host.call('forgetStart');
      const after = await host.call<{ context: string | null }>('prompt', { message: 'What is the Lisbon trip codeword?', sessionId: 'after-kill' });
      expect(after.context).toContain('saffron-kite');
      const { bridgePid } = await host.call<{ bridgePid: number | null }>('stats');
      expect(bridgePid).not.toBe(killed);
      expect((await host.call<{ warnings: string[] }>('warnings')).warnings).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it.skipIf(!node)('four OpenClaw processes on one state dir at once all get recall', { timeout: 300_000 }, async () => {
    const { stateDir, dataDir } = pluginOcDir();
    const hosts = Array.from({ length: 4 }, () => startPluginHost(node as string, { stateDir, dataDir, node: process.execPath, bin: CAIRN_BIN, recallBudgetMs: 600_000, startupBudgetMs: 600_000, minScore: 0 }));
    try {
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(hosts.map((h, i) => h.call<{ context: string | null }>('prompt', { message: 'What is the Lisbon trip codeword?', sessionId: `p${i}-r${round}` })));
        for (const a of answers) expect(a.context).toContain('saffron-kite');
      }
      const pids = await Promise.all(hosts.map((h) => h.call<{ bridgePid: number | null }>('stats')));
      expect(new Set(pids.map((p) => p.bridgePid)).size).toBe(4);
    } finally {
      await Promise.all(hosts.map((h) => h.close()));
    }
  });
});
