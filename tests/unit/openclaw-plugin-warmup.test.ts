/**
 * Cairn warming up does not hold OpenClaw's prompts: the plugin (under OpenClaw's Node 24)
 * against the real CLI bridge whose warm-up never ends — the test holds it with the bridge's
 * pause hook, passed in by tests/helpers/openclaw-bridge-paused.mjs, as a rebuild after an
 * upgrade would hold it. `hello` answers at once, so prompts get recall and corpus searches
 * answer while the warm-up still runs, rather than each waiting on the start-up budget.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginOcDir } from '../helpers/openclaw-plugin-dir';
import { openClawNode, startPluginHost } from '../helpers/openclaw-plugin-host';

const { node, skip } = openClawNode();
const PAUSED_BIN = path.join(__dirname, '..', 'helpers', 'openclaw-bridge-paused.mjs');

describe(`Cairn's plugin while Cairn warms up${skip}`, () => {
  it.skipIf(!node)('prompts get recall and memory_search answers while the warm-up has not ended', { timeout: 300_000 }, async () => {
    const { stateDir, dataDir } = pluginOcDir();
    const host = startPluginHost(node as string, {
      stateDir,
      dataDir,
      node: process.execPath,
      bin: PAUSED_BIN,
      env: { CAIRN_TEST_BRIDGE_PAUSE: JSON.stringify({ 'warm-up': 'forever' }) },
      // Generous budgets, so only the warm-up could keep an answer out (no timing is asserted).
      recallBudgetMs: 60_000,
      startupBudgetMs: 60_000,
      minScore: 0,
    });
    try {
      // A gateway starts Cairn before the first message; its warm-up then never ends.
      await host.call('gatewayStart');
      for (const sessionId of ['w-1', 'w-2', 'w-3']) {
        const out = await host.call<{ context: string | null }>('prompt', { message: 'What is the Lisbon trip codeword?', sessionId });
        expect(out.context).toContain('saffron-kite');
      }
      expect((await host.call<{ ready: boolean }>('ready')).ready).toBe(true);
      const { hits } = await host.call<{ hits: { citation: string; snippet: string }[] }>('search', { query: 'Lisbon trip codeword' });
      expect(hits.map((h) => h.snippet).join('\n')).toContain('saffron-kite');
      expect((await host.call<{ warnings: string[] }>('warnings')).warnings).toEqual([]);
    } finally {
      // Closing ends the bridge, and with it the warm-up it holds.
      await host.close();
    }
  });
});
