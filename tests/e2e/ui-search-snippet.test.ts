/**
 * Issue 14 item 10 (engine side, seen in Chromium): a hit deep inside a long note shows the
 * whole matching line in its snippet, not half of it, with "…" lines for what is left out.
 */
import { describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';
import { writeTree } from '../helpers/tmp';
import { FakeEmbedder } from '../../testkit/fake-embedder';

const LINE = 'Decision: the zz-quokka-42 cluster moves to the Frankfurt region because latency from the Berlin office halved there.';
const filler = (tag: string) => Array.from({ length: 14 }, (_, i) => `- ${tag} ${i}: routine notes about the weekly sync and nothing else of note`);

const env = e2eEnv(
  'cairn-e2e-snippet-',
  (dir) => {
    const { workspace } = seedMemory(dir);
    writeTree(workspace, { 'memory/infra.md': ['# Infra', ...filler('before'), LINE, ...filler('after'), ''].join('\n') });
  },
  { createEmbedder: async () => new FakeEmbedder() },
);

describe('Search snippets', () => {
  it('show the whole matching line of a long note', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/search`);
    await page.getByRole('searchbox', { name: 'Search memory' }).fill('zz-quokka-42');
    const hit = page.getByTestId('search-result').filter({ hasText: 'memory/infra.md' }).first();
    await hit.waitFor();
    // With the lines that answer (issue 37) the matching line is one of them, whole; without, the snippet.
    const picked = hit.getByTestId('picked-lines');
    if ((await picked.count()) > 0) {
      expect(await picked.locator('.picked-text').allTextContents()).toContain(LINE);
    } else {
      const snippet = (await hit.locator('.result-snippet').textContent()) ?? '';
      expect(snippet.split('\n')).toContain(LINE);
      expect(snippet.startsWith('…\n')).toBe(true);
      expect(snippet.length).toBeLessThanOrEqual(700);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
