/**
 * Issue 14 item 10, in Chromium: near-identical daily-note hits fold under the best one,
 * dates are typed as ISO YYYY-MM-DD (a half-typed date is marked, not applied), and opening
 * a hit moves the Memory calendar to its month and its entry in the daily list into view.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';
import { FakeEmbedder } from '../../testkit/fake-embedder';

const DAYS = ['2025-03-03', '2025-03-04', '2025-03-05', '2025-03-06', '2025-03-07'];

const env = e2eEnv(
  'cairn-e2e-search-polish-',
  (dir) => {
    const { workspace } = seedMemory(dir);
    for (const d of DAYS) fs.writeFileSync(path.join(workspace, 'memory', `${d}.md`), `# ${d}\n\n- Reminder: water the office ficus (zz-ficus-7).\n`);
    return workspace;
  },
  { createEmbedder: async () => new FakeEmbedder() },
);

describe('Search polish', () => {
  it('folds near-identical hits, takes ISO dates, and opening a hit moves the calendar and list', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/search`);
    const box = page.getByRole('searchbox', { name: 'Search memory' });
    await box.fill('water the office ficus zz-ficus-7');
    const first = page.getByTestId('search-result').first();
    await first.getByTestId('similar-toggle').waitFor();
    const ficus = page.getByTestId('search-result').filter({ hasText: 'ficus' });
    expect(await ficus.count()).toBe(1);
    expect(await first.getByTestId('similar-toggle').textContent()).toBe(`Show ${DAYS.length - 1} near-identical hits`);
    await first.getByTestId('similar-toggle').click();
    expect(await first.getByTestId('similar-hits').locator('li').count()).toBe(DAYS.length - 1);
    await screenshot(page, 'search-grouped');

    // ISO dates: half typed is marked and not applied; a full date filters.
    const since = page.getByRole('textbox', { name: 'Since' });
    expect(await since.getAttribute('placeholder')).toBe('YYYY-MM-DD');
    await since.fill('2025-03-0');
    expect(await since.getAttribute('aria-invalid')).toBe('true');
    await since.fill('2025-03-06');
    expect(await since.getAttribute('aria-invalid')).toBeNull();
    await page.getByTestId('search-result').first().getByTestId('similar-toggle').filter({ hasText: /\b1 near-identical hit$/ }).waitFor();

    // Opening a hit: the calendar turns to March 2025 and the daily list shows the note.
    const cite = (await page.getByTestId('search-result').first().locator('.result-cite').first().textContent()) ?? '';
    const day = /memory\/(\d{4}-\d{2}-\d{2})\.md/.exec(cite)?.[1];
    expect(DAYS).toContain(day);
    await page.getByTestId('search-result').first().locator('.result-cite').first().click();
    await page.getByTestId('memory-path').filter({ hasText: `memory/${day}.md` }).waitFor();
    await page.getByRole('grid', { name: /March 2025/ }).waitFor();
    const inView = await page.evaluate(() => {
      const list = document.querySelector('.mem-daily') as HTMLElement;
      const a = list.querySelector('a.active') as HTMLElement;
      const l = list.getBoundingClientRect();
      const r = a.getBoundingClientRect();
      return r.top >= l.top - 1 && r.bottom <= l.bottom + 1;
    });
    expect(inView).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });
});
