/**
 * Issue 14 item 13 (part), in Chromium: an empty state dir does not say "pick a session on
 * the left" when there is none, and a named session shows its name, not its key.
 */
import { describe, expect, it } from 'vitest';
import { openPage } from '../helpers/browser';
import { serveStateDir } from '../helpers/server';
import { launchChromium } from '../helpers/browser';
import { seedSessions } from '../helpers/seed-sessions';
import { tmpDir } from '../helpers/tmp';

describe('First run', () => {
  it('says there are no sessions in an empty dir, and shows session names', async () => {
    const browser = await launchChromium();
    const empty = await serveStateDir(tmpDir());
    const seededDir = tmpDir();
    seedSessions(seededDir);
    const seeded = await serveStateDir(seededDir);
    try {
      const { page, errors } = await openPage(browser, `${empty.server.openUrl}#/sessions`);
      // An empty dir opens on the welcome; past it, the empty list.
      await page.getByRole('button', { name: 'Start a new assistant' }).click();
      await page.getByRole('button', { name: 'Sessions' }).click();
      await page.getByTestId('sessions-none').waitFor();
      expect(await page.getByText(/Pick a session on the left/).count()).toBe(0);
      await page.close();

      const p2 = await openPage(browser, `${seeded.server.openUrl}#/sessions`);
      const list = p2.page.getByRole('complementary', { name: 'Sessions' });
      await list.getByText('Time zone question').waitFor();
      expect(await list.getByText('agent:main:cli:quick').count()).toBe(0);
      expect([...errors, ...p2.errors]).toEqual([]);
      await p2.page.close();
    } finally {
      await empty.close();
      await seeded.close();
      await browser.close();
    }
  });
});
