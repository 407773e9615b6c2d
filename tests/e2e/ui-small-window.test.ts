/**
 * Issue 14 item 9, in Chromium at 800 px: the session list collapses (and a narrow window
 * opens with it collapsed while a session is open), the choice survives a reload, and the
 * pruning table scrolls inside its pane instead of overflowing the window or being cut.
 */
import { describe, expect, it } from 'vitest';
import { screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedSessions } from '../helpers/seed-sessions';

const env = e2eEnv('cairn-e2e-small-', (dir) => seedSessions(dir).compacted);

describe('Small windows', () => {
  it('collapses the session list and keeps the pruning table inside the window', async () => {
    const page = await env.browser.newPage({ viewport: { width: 800, height: 700 } });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${env.served.server.openUrl}#/sessions/${env.seeded.sessionId}/pruning`);
    await page.getByTestId('prune-gate').waitFor();
    const list = page.getByRole('complementary', { name: 'Sessions' });
    // Narrow window, a session open: the list starts collapsed.
    expect(await list.isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'Show session list' });
    await toggle.click();
    await list.waitFor();
    expect(await page.getByRole('button', { name: 'Hide session list' }).getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('button', { name: 'Hide session list' }).click();
    await list.waitFor({ state: 'hidden' });

    // Nothing sticks out of the window: the document never scrolls sideways.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The table is whole: its last column is inside the pane's scrollable width.
    const fits = await page.evaluate(() => {
      const pane = document.querySelector('[data-testid="pruning-view"]') as HTMLElement;
      const table = pane.querySelector('.prune-table') as HTMLElement;
      return table.getBoundingClientRect().width <= pane.scrollWidth;
    });
    expect(fits).toBe(true);
    await screenshot(page, 'pruning-800');

    // The choice is kept across a reload.
    await page.reload();
    await page.getByTestId('prune-gate').waitFor();
    expect(await list.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  });
});
