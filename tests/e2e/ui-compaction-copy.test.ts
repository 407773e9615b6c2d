/**
 * Issue 14 item 7 (part), in Chromium: a session with nothing to compact says so once instead
 * of "0 entries summarised · one request" beside a blocked button, and the exact prompt can
 * be copied.
 */
import { describe, expect, it } from 'vitest';
import { e2eEnv } from '../helpers/e2e-env';
import { seedSessions } from '../helpers/seed-sessions';

const env = e2eEnv('cairn-e2e-compact-copy-', (dir) => seedSessions(dir).sessions.find((s) => s.key === 'agent:main:cli:quick'));

describe('Compaction inspector', () => {
  it('says there is nothing to compact, hides the zero stats, and copies the prompt', async () => {
    const ctx = await env.browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${env.served.server.openUrl}#/sessions/${env.seeded?.sessionId}/compaction`);
    await page.getByTestId('plan-nothing').waitFor();
    expect(await page.getByText('entries summarised').isVisible()).toBe(false);
    expect(await page.getByTestId('compact-blocked').count()).toBe(1);
    await page.getByRole('button', { name: 'Copy the system prompt' }).click();
    await page.getByRole('button', { name: /^Copied / }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.getByTestId('plan-system').textContent());
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
