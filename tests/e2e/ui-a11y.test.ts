/**
 * Issue 14 item 5 (and the screenshot set), in Chromium: axe-core on every page in both themes
 * finds no critical and no serious violation; keyboard paths (skip link, `?` shortcut sheet,
 * page shortcuts, arrow keys in the calendar). axe is injected in tests only, past the CSP
 * (`bypassCSP`). Every page is saved at 1440 and 800 px in both themes into test-results/.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axe, newPage, type Violation } from '../helpers/axe';
import { screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedMemory } from '../helpers/seed-memory';
import { seedSessions } from '../helpers/seed-sessions';
import { FakeEmbedder } from '../../testkit/fake-embedder';

const env = e2eEnv(
  'cairn-e2e-a11y-',
  (dir) => {
    const s = seedSessions(dir);
    seedMemory(dir);
    return s;
  },
  { createEmbedder: async () => new FakeEmbedder() },
);

/** Each page, opened and waited on until its content is there. */
const PAGES: { name: string; hash: (s: { sessionId: string }) => string; ready: (p: Page) => Promise<unknown> }[] = [
  { name: 'sessions', hash: (s) => `#/sessions/${s.sessionId}/timeline`, ready: (p) => p.getByTestId('timeline').locator('.timeline-row').first().waitFor() },
  { name: 'pruning', hash: (s) => `#/sessions/${s.sessionId}/pruning`, ready: (p) => p.getByTestId('prune-gate').waitFor() },
  { name: 'compaction', hash: (s) => `#/sessions/${s.sessionId}/compaction`, ready: (p) => p.getByTestId('plan-tokens').waitFor() },
  { name: 'memory', hash: () => '#/memory?path=MEMORY.md', ready: (p) => p.getByTestId('memory-rendered').waitFor() },
  {
    name: 'search',
    hash: () => '#/search',
    ready: async (p) => {
      await p.getByRole('searchbox', { name: 'Search memory' }).fill('restic backups');
      await p.getByTestId('search-result').first().waitFor();
    },
  },
  { name: 'chat', hash: () => '#/chat', ready: (p) => p.locator('main h1').first().waitFor() },
  { name: 'settings', hash: () => '#/settings', ready: (p) => p.locator('main h1').first().waitFor() },
  { name: 'status', hash: () => '#/status', ready: (p) => p.locator('[data-check="sqlite"]').waitFor() },
];

describe('Accessibility and the screenshot set', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`no critical or serious axe violations on any page (${theme}); screenshots at 1440 and 800 px`, async () => {
      const found: Record<string, Violation[]> = {};
      for (const width of [1440, 800]) {
        const { page, errors } = await newPage(env.browser, width, theme);
        await page.goto(env.served.server.openUrl);
        for (const p of PAGES) {
          // A fresh load per page (the cookie from the first visit authenticates it).
          await page.goto('about:blank');
          await page.goto(`${env.served.server.url}/${p.hash(env.seeded.compacted)}`);
          await p.ready(page);
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          await screenshot(page, `page-${p.name}-${width}-${theme}`);
          if (width === 1440) {
            const v = await axe(page);
            if (v.length) found[p.name] = v;
          }
        }
        expect(errors).toEqual([]);
        await page.context().close();
      }
      expect(found).toEqual({});
    }, 180_000);
  }

  it('keyboard paths: skip link, Alt+digit pages, the ? sheet, arrow keys in the calendar', async () => {
    const { page, errors } = await newPage(env.browser, 1440, 'light');
    await page.goto(`${env.served.server.openUrl}#/memory?path=MEMORY.md`);
    await page.getByTestId('memory-rendered').waitFor();
    // The first Tab lands on the skip link; it moves the focus to the main pane.
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

    // Rail names are words, not glyphs (the glyphs are aria-hidden decoration).
    const rail = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Sessions', 'Memory', 'Search', 'Chat', 'Settings', 'Status']) expect(await rail.getByRole('button', { name, exact: true }).count()).toBe(1);

    // Arrow keys in the calendar: one tab stop; → moves a day, ↑ a week; Enter opens a note.
    const grid = page.getByRole('grid', { name: /Daily notes/ });
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.date);
    await grid.locator('[tabindex="0"]').focus();
    const start = (await focused()) as string;
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.keyboard.press('ArrowLeft');
    const left = (await focused()) as string;
    expect(new Date(start).getTime() - new Date(left).getTime()).toBe(86_400_000);
    await page.keyboard.press('ArrowUp');
    const up = (await focused()) as string;
    expect(new Date(left).getTime() - new Date(up).getTime()).toBe(7 * 86_400_000);
    expect(await grid.locator('[tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByTestId('memory-path').filter({ hasText: `memory/${left}.md` }).waitFor();

    // Alt+3 goes to Search, Alt+1 to Sessions; `?` opens the sheet, Esc closes it.
    await page.keyboard.press('Alt+3');
    await page.getByRole('searchbox', { name: 'Search memory' }).waitFor();
    await page.keyboard.press('Alt+1');
    await page.waitForURL(/#\/sessions/);
    // The hash changes before React swaps the page: wait for Sessions, then leave every text
    // box (a `?` typed into one is text, by design — focusing <body> does not blur it).
    await page.getByRole('searchbox', { name: 'Filter sessions' }).or(page.getByRole('textbox', { name: 'Filter sessions' })).first().waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Shift+Slash');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await sheet.waitFor();
    expect(await sheet.textContent()).toContain('Alt+2');
    expect(await axe(page)).toEqual([]);
    await screenshot(page, 'shortcut-sheet');
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
