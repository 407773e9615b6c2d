import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, screenshot } from '../helpers/browser';
import { serveStateDir, type Served } from '../helpers/server';
import { tmpDir, writeTree } from '../helpers/tmp';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('Status page in Chromium over cairn serve', () => {
  let served: Served | undefined;
  afterAll(async () => served?.close());

  it('shows real values from the engine: state dir and sqlite-vec version', async () => {
    const stateDir = tmpDir();
    served = await serveStateDir(stateDir);
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/status`);
    // Token is taken from the URL and then removed from it.
    await page.getByTestId('state-dir').waitFor();
    expect(await page.getByTestId('state-dir').textContent()).toBe(stateDir);
    const vec = page.locator('[data-check="sqlite-vec"]');
    await vec.waitFor();
    expect(await vec.textContent()).toMatch(/sqlite-vec v0\.1\.9/);
    expect(await page.locator('[data-check="sqlite"]').textContent()).toMatch(/FTS5/);
    expect(page.url()).not.toContain('token=');
    await screenshot(page, 'status');
    // The theme toggle switches the document theme.
    const before = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.getByRole('button', { name: /Switch to (light|dark) theme/ }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).not.toBe(before);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a config warning naming the bad key, and the app still runs', async () => {
    await served?.close();
    const stateDir = writeTree(tmpDir(), {
      'cairn.json': '{ agents: { defaults: { compaction: { reserveTokensFloor: "lots" } } } }',
    });
    served = await serveStateDir(stateDir);
    const { page, errors } = await openPage(browser, `${served.server.openUrl}#/status`);
    const banner = page.getByRole('status').filter({ hasText: 'config value' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('agents.defaults.compaction.reserveTokensFloor');
    const warning = page.locator('.warnings li').first();
    expect(await warning.textContent()).toContain('"lots"');
    // The state dir has a cairn.json only: it was not created by Cairn, so it is read-only.
    expect(await page.getByRole('status').filter({ hasText: 'Read-only' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
