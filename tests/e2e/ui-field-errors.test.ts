/**
 * Issue 14 item 6, in Chromium: a refused try-out value in the pruning view marks its field
 * with a message for a person (not "invalid request: … Too big"), the old figures are shown as
 * out of date, and a valid value clears both.
 */
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { seedSessions } from '../helpers/seed-sessions';

const env = e2eEnv('cairn-e2e-fields-', (dir) => seedSessions(dir).compacted);

describe('Field errors in the GUI', () => {
  it('marks the refused pruning setting and says why in words', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions/${env.seeded.sessionId}/pruning`);
    await page.getByTestId('prune-gate').waitFor();
    const input = page.getByLabel('softTrimRatio', { exact: true });
    await input.fill('5');
    await page.locator('input[aria-invalid="true"]').waitFor();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    const why = page.locator('#prune-err-softTrimRatio');
    expect(await why.textContent()).toBe('softTrimRatio must be at most 1');
    const alert = page.getByRole('alert').filter({ hasText: 'not valid' });
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/invalid request|Too big|prune\.preview/);
    expect(await page.locator('.stats[data-stale="true"]').count()).toBe(1);
    await screenshot(page, 'pruning-field-error');

    await input.fill('0.4');
    await page.locator('input[aria-invalid="true"]').waitFor({ state: 'detached' });
    expect(await page.locator('.stats[data-stale="true"]').count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });
});
