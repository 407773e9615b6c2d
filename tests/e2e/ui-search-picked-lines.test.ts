/**
 * Issue 37 item 3 in the window, in Chromium over a real search: a hit shows the lines that
 * answer — line numbers of the cited file, the query's terms marked, "…" for lines left out —
 * and "Show whole passage" opens the cited lines as the note has them (memory.read), and back.
 * When the engine sent no picked lines for a hit, it shows the snippet with the answer, as
 * before. No critical or serious axe finding in either state, in both themes.
 */
import { describe, expect, it } from 'vitest';
import { axe, newPage } from '../helpers/axe';
import { screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';
import { writeTree } from '../helpers/tmp';
import { FakeEmbedder } from '../../testkit/fake-embedder';

/** Fifteen turns of a talk; the twelfth (line 14 of the note) answers. */
const TURNS = Array.from({ length: 15 }, (_, i) =>
  i === 11 ? '**Mara:** The zz-wombat build server moved to rack 7 in the Lisbon office last Tuesday.' : `**${i % 2 ? 'Mara' : 'Jon'}:** turn ${i + 1} of the weekly sync, about lunch and the calendar.`,
);
const ANSWER_LINE = 14;

const env = e2eEnv(
  'cairn-e2e-picked-',
  (dir) => {
    const { workspace } = seedMemory(dir);
    writeTree(workspace, { 'memory/2026-11-20.md': ['# 2026-11-20', '', ...TURNS, ''].join('\n') });
  },
  { createEmbedder: async () => new FakeEmbedder() },
);

describe('Search results show the lines that answer', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`numbers and marks the picked lines, opens the whole passage, and keeps axe quiet (${theme})`, async () => {
      const { page, errors } = await newPage(env.browser, 1280, theme);
      await page.goto(env.served.server.openUrl);
      await page.goto(`${env.served.server.url}/#/search`);
      await page.getByRole('searchbox', { name: 'Search memory' }).fill('where did the zz-wombat build server move');
      const hit = page.getByTestId('search-result').filter({ hasText: 'memory/2026-11-20.md' }).first();
      await hit.waitFor();
      const picked = hit.getByTestId('picked-lines');
      if ((await picked.count()) > 0) {
        // The answering line, with its number in the note and the searched words marked.
        const answer = picked.locator(`[data-line="${ANSWER_LINE}"]`);
        expect(await answer.locator('.picked-ln').textContent()).toBe(`L${ANSWER_LINE}`);
        expect(await answer.locator('.picked-text').textContent()).toContain('moved to rack 7 in the Lisbon office');
        expect((await answer.locator('mark').allTextContents()).map((t) => t.toLowerCase())).toContain('zz-wombat');
        const numbers = (await picked.locator('.picked-ln').allTextContents()).map((t) => Number(t.slice(1)));
        expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
        // "…" between lines that are not next to each other.
        const gaps = numbers.slice(1).filter((n, i) => n > numbers[i]! + 1).length;
        expect(await picked.locator('.picked-gap').count()).toBe(gaps);
        expect(await axe(page)).toEqual([]);
        await screenshot(page, `search-picked-lines-${theme}`);

        const toggle = hit.getByRole('button', { name: 'Show whole passage' });
        expect(await toggle.getAttribute('aria-expanded')).toBe('false');
        await toggle.click();
        const whole = hit.getByTestId('whole-passage');
        await whole.filter({ hasText: 'turn 1' }).or(whole.filter({ hasText: 'turn 11' })).first().waitFor();
        expect(await whole.textContent()).toContain('moved to rack 7 in the Lisbon office');
        expect(await hit.getByRole('button', { name: 'Show the lines that answer' }).getAttribute('aria-expanded')).toBe('true');
        expect(await axe(page)).toEqual([]);
        await hit.getByRole('button', { name: 'Show the lines that answer' }).click();
        await picked.waitFor();
      } else {
        // No picked lines from the engine: the snippet, with the answer in it.
        expect(await hit.locator('.result-snippet').textContent()).toContain('moved to rack 7 in the Lisbon office');
        expect(await hit.getByRole('button', { name: 'Show whole passage' }).count()).toBe(0);
        expect(await axe(page)).toEqual([]);
      }
      expect(errors).toEqual([]);
      await page.context().close();
    }, 120_000);
  }
});
