/**
 * Cairn's plugin under OpenClaw's own Node 24 against the real `cairn openclaw-bridge`, with
 * memory text a line-based wire can break on: U+2028 and U+2029 (Node 24's readline ends a
 * line at each, and JSON.stringify leaves them as they are), NUL, lone surrogates and a 1 MB
 * line. What OpenClaw's user gets: recall for the prompt, and memory_search/memory_get
 * `corpus=all` answering with the note's text as it is on disk — never a timeout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAIRN_BIN } from '../helpers/cli';
import { pluginOcDir } from '../helpers/openclaw-plugin-dir';
import { openClawNode, rawBridge, startPluginHost } from '../helpers/openclaw-plugin-host';

const { node, skip } = openClawNode();
const LS = '\u2028';
const PS = '\u2029';

interface Hit {
  path: string;
  snippet: string;
  citation: string;
}

describe(`Cairn's plugin on OpenClaw's Node 24, memory text that breaks line framing${skip}`, () => {
  it.skipIf(!node)('recall, search and get carry U+2028/U+2029, NUL, lone surrogates and a 1 MB line whole', { timeout: 180_000 }, async () => {
    const big = `The glacier survey log ${'moraine-sample '.repeat(70_000)}ends here.`;
    expect(big.length).toBeGreaterThan(1_000_000);
    const { stateDir, dataDir, memoryDir } = pluginOcDir({
      '2026-12-03.md': `# 2026-12-03\n\n- The harbour gate code is HARBOUR-5150${LS}and the spare key is under the blue pot${PS}by the door.\n- A field with a NUL\u0000inside and a lone surrogate \ud800 in it.\n`,
      '2026-12-04.md': `# 2026-12-04\n\n${big}\n`,
    });
    const host = startPluginHost(node as string, { stateDir, dataDir, node: process.execPath, bin: CAIRN_BIN, recallBudgetMs: 600_000, startupBudgetMs: 600_000, minScore: 0 });
    try {
      expect((await host.call<{ version: string }>('node')).version).toMatch(/^v24\./);

      // A prompt holding the characters too (the recall log quotes it).
      const ask = `Where is the harbour gate code${LS}and the spare key? \ud83d ${PS}`;
      const recalled = await host.call<{ context: string | null }>('prompt', { message: ask });
      expect(recalled.context).toContain('HARBOUR-5150');

      const { hits } = await host.call<{ hits: Hit[] }>('search', { query: 'harbour gate code spare key', maxResults: 6 });
      const gate = hits.find((h) => h.path === 'memory/2026-12-03.md');
      expect(gate?.snippet).toContain(`HARBOUR-5150${LS}and the spare key`);
      expect(gate?.snippet).toContain(PS);

      const onDisk = fs.readFileSync(path.join(memoryDir, '2026-12-03.md'), 'utf8');
      const got = await host.call<{ result: { content: string } | null }>('get', { lookup: 'memory/2026-12-03.md' });
      expect(got.result?.content).toBe(onDisk);
      expect(got.result?.content).toContain('NUL\u0000inside');

      const surveyed = await host.call<{ hits: Hit[] }>('search', { query: 'glacier survey log moraine', maxResults: 3 });
      expect(surveyed.hits.map((h) => h.path)).toContain('memory/2026-12-04.md');
      const whole = await host.call<{ result: { content: string } | null }>('get', { lookup: 'memory/2026-12-04.md' });
      expect(whole.result?.content.length).toBeGreaterThan(1_000_000);
      expect(whole.result?.content).toContain(big);

      expect((await host.call<{ warnings: string[] }>('warnings')).warnings).toEqual([]);
    } finally {
      await host.close();
    }
  });
});

describe(`The wire's messages are checked on both ends${skip}`, () => {
  it('Cairn answers a request that does not fit the wire with an error naming the field, and keeps serving', { timeout: 120_000 }, async () => {
    const { stateDir, dataDir } = pluginOcDir();
    const bridge = rawBridge(CAIRN_BIN, stateDir, { CAIRN_DATA_DIR: dataDir });
    const { ask } = bridge;
    try {
      expect(await ask(JSON.stringify({ id: 1, op: 'search', query: 'Lisbon', maxResults: 'ten' }))).toEqual({ id: 1, ok: false, error: 'bad request: search.maxResults must be absent or a number' });
      expect(await ask(JSON.stringify({ id: 2, op: 'recall', sessionId: 's', message: 'hi', recent: ['a', 3] }))).toEqual({ id: 2, ok: false, error: 'bad request: recall.recent must be absent or a list of strings' });
      expect(await ask(JSON.stringify({ id: 3, op: 'compaction', record: { tokensBefore: 10 } }))).toEqual({ id: 3, ok: false, error: 'bad request: compaction.record.sessionId must be a string' });
      expect(await ask(JSON.stringify({ id: 4, op: 'forget' }))).toEqual({ id: 4, ok: false, error: 'bad request: unknown op "forget"' });
      const ok = await ask(JSON.stringify({ id: 5, op: 'search', query: 'Lisbon trip codeword', maxResults: null }));
      expect(ok).toMatchObject({ id: 5, ok: true, result: expect.arrayContaining([expect.objectContaining({ corpus: 'cairn' })]) });
    } finally {
      await bridge.close();
    }
  });

  it.skipIf(!node)("the plugin turns an answer that does not fit the wire into no recall and one warning, never into OpenClaw's hands", { timeout: 120_000 }, async () => {
    const { stateDir, dataDir } = pluginOcDir();
    const misfit = path.join(__dirname, '..', 'helpers', 'openclaw-bridge-misfit.mjs');
    const host = startPluginHost(node as string, { stateDir, dataDir, node: node as string, bin: misfit, recallBudgetMs: 60_000, startupBudgetMs: 60_000 });
    try {
      expect((await host.call<{ context: string | null }>('prompt', { message: 'What is the Lisbon trip codeword?' })).context).toBeNull();
      await expect(host.call('search', { query: 'Lisbon' })).rejects.toThrow("Cairn's answer does not fit the wire: search result[0].citation must be a string");
      expect((await host.call<{ warnings: string[] }>('warnings')).warnings).toEqual([
        "cairn: recall went on without Cairn: Cairn's answer does not fit the wire: recall result.context must be a string",
        "cairn: memory_search went on without Cairn: Cairn's answer does not fit the wire: search result[0].citation must be a string",
      ]);
    } finally {
      await host.close();
    }
  });
});
