/**
 * Issue 14 item 14, in Chromium: on a session far past its window (~1M tokens against 200k)
 * the y-axis is clipped so the thresholds do not sit on zero, the peak is stated, and the
 * flush and compaction labels (176k / 180k) are drawn apart.
 */
import { describe, expect, it } from 'vitest';
import { openPage, screenshot } from '../helpers/browser';
import { e2eEnv } from '../helpers/e2e-env';
import { writeBigSession } from '../../testkit/big-inputs';

// 400 entries, every third tool result 120 KB and no compaction: ~1M tokens against 200k.
const env = e2eEnv('cairn-e2e-chart-', (dir) => writeBigSession(dir, 400));

describe('Token chart far past the window', () => {
  it('clips the axis, states the peak, and labels the two threshold lines apart', async () => {
    const { page, errors } = await openPage(env.browser, `${env.served.server.openUrl}#/sessions/${env.seeded.sessionId}/timeline`);
    const chart = page.getByTestId('token-chart');
    await chart.locator('canvas').first().waitFor();
    const note = page.getByTestId('chart-clipped');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/axis stops at 260,000 tokens.*peaks at [\d,]+.*200,000-token window/);
    await page.locator('[data-testid="token-chart"][data-labels]').waitFor();
    const [yC, yF] = ((await chart.getAttribute('data-labels')) ?? '').split(',').map(Number) as [number, number];
    expect(yF - yC).toBeGreaterThanOrEqual(12);
    await screenshot(page, 'token-chart-clipped');
    expect(errors).toEqual([]);
    await page.close();
  });
});
